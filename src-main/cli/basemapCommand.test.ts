import { statSync } from 'node:fs';
import path from 'node:path';
import { PMTiles, type RangeResponse, type Source } from 'pmtiles';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveBytes, sourceArchive, type TestServer } from '../engine/basemap/extract/testServer';
import { makeTempDir, type TempDir } from '../engine/testing/tempDir';
import { lastJson, runEntry, CLI } from './cliTesting';

const REGION = { minLat: 41.2, maxLat: 42.6, minLon: -88.5, maxLon: -86.9 };

let server: TestServer;
let dir: TempDir;

beforeAll(async () => {
  server = await serveBytes(sourceArchive(REGION, 15).bytes);
  dir = makeTempDir('blotter-cli-basemap-');
});
afterAll(async () => {
  await server.close();
  dir.remove();
});

class FileSource implements Source {
  constructor(private readonly bytes: Uint8Array) {}
  getKey = () => 'file';
  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    return { data: this.bytes.slice(offset, offset + length).buffer };
  }
}

describe('blotter basemap download', () => {
  it('downloads the areas’ streets with progress on stderr, a JSON last line, exit 0; the file reads back', async () => {
    const data = dir.path;
    const add = await runEntry(CLI, [
      'areas',
      'add',
      '--name',
      'Loop',
      '--circle',
      '41.8781,-87.6298,0.5',
      '--data-dir',
      data,
    ]);
    expect(add.code).toBe(0);
    const r = await runEntry(CLI, [
      'basemap',
      'download',
      '--data-dir',
      data,
      '--source',
      server.url,
      '--max-zoom',
      '14',
    ]);
    expect(r.stderr).toMatch(/basemap: \d[\d,]* tiles, [\d.]+ MB for 1 area\(s\), zoom 0–14/);
    expect(r.stderr).toMatch(/basemap: done: ([\d,]+)\/\1 tiles/);
    expect(r.code).toBe(0);
    const out = lastJson(r.stdout);
    const file = path.join(data, 'basemap', 'areas.pmtiles');
    expect(out).toMatchObject({ complete: true, file, source: server.url });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const archive = new PMTiles(new FileSource(new Uint8Array(readFileSync(file))));
    const header = await archive.getHeader();
    expect(header.maxZoom).toBe(14);
    expect(header.numAddressedTiles).toBe(out.tiles);
  }, 60_000);

  it('basemap status: which areas the extract covers, and the one a new area needs', async () => {
    const data = dir.path; // the Loop's extract from the test above
    const before = await runEntry(CLI, ['basemap', 'status', '--data-dir', data]);
    expect(before.code).toBe(0);
    expect(lastJson(before.stdout)).toMatchObject({
      drawn: 'extract',
      status: 'ready',
      source: server.url,
      extract: { maxZoom: 14 },
      areas: [{ covered: true }],
      extendOffered: false,
    });
    const add = await runEntry(CLI, [
      'areas',
      'add',
      '--name',
      'Lakeview',
      '--circle',
      '41.95,-87.66,0.5',
      '--data-dir',
      data,
    ]);
    expect(add.code).toBe(0);
    const after = await runEntry(CLI, ['basemap', 'status', '--data-dir', data]);
    expect(after.code).toBe(0);
    const status = lastJson(after.stdout);
    expect(status).toMatchObject({ extendOffered: true, areas: [{ covered: true }, { covered: false }] });
    expect(after.stderr).toMatch(/do not cover area \d+; `blotter basemap download` rebuilds/);
  }, 60_000);

  it('refuses a source that breaks the outbound rules, exit 2', async () => {
    const r = await runEntry(CLI, [
      'basemap',
      'download',
      '--data-dir',
      dir.path,
      '--source',
      'http://tiles.example.org/a.pmtiles',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--source: .*https/i);
  });

  it('says what the source does wrong: no range support, exit 1', async () => {
    server.set({ ranges: false });
    try {
      const r = await runEntry(CLI, ['basemap', 'download', '--data-dir', dir.path, '--source', server.url]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/range/i);
    } finally {
      server.set({ ranges: true });
    }
  });
});

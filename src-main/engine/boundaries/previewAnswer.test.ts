/**
 * The preview's answer stays the size of a name picker whatever the file holds: a KML description
 * of megabytes (a hostile file, or images embedded as text) went whole to the page; an attribute's
 * name of megabytes is refused naming its length. The kept layer keeps the texts whole.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngineError } from '../errors';
import { openTestEngine, type TestEngine } from '../export/exportTesting';

let t: TestEngine;
beforeEach(() => (t = openTestEngine()));
afterEach(() => t.close());

const kml = (extended: string, description: string) =>
  `<kml><Document><Placemark><name>Beat 11</name><description>${description}</description><ExtendedData>${extended}</ExtendedData><Point><coordinates>-87.6,41.8</coordinates></Point></Placemark></Document></kml>`;

describe('a boundary preview', () => {
  it('cuts a long attribute text to 1,000 characters for the page', async () => {
    const file = path.join(t.dir.path, 'long.kml');
    writeFileSync(file, kml('', 'x'.repeat(5_000_000)));
    const layers = t.engine.context.services.layers;
    const preview = await layers.preview({ path: file });
    const shown = preview.features[0]!.properties.description as string;
    expect(shown.length).toBe(1_001);
    expect(shown.endsWith('…')).toBe(true);
    expect(preview.features[0]!.properties.name).toBe('Beat 11');
    expect(JSON.stringify(preview).length).toBeLessThan(10_000);
  });

  it('refuses an attribute whose name is longer than 1,000 characters, naming its length', async () => {
    const file = path.join(t.dir.path, 'name.kml');
    writeFileSync(file, kml(`<Data name="${'n'.repeat(2_000_000)}"><value>1</value></Data>`, 'd'));
    let error: unknown;
    try {
      await t.engine.context.services.layers.preview({ path: file });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).message).toMatch(
      /^name\.kml: An attribute's name is 2,000,000 characters long \("n{40}…"\); names of at most 1,000 are read\.$/,
    );
  });
});

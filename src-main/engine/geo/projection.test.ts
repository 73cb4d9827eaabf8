/**
 * proj4 is loaded on its first use (projection.ts): a thread that reads a boundary file in degrees
 * or in a bundled zone never pays its load (~60 ms of a helper thread's start). Checked in a fresh
 * Node process, whose module cache shows what was loaded.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../testing/tempDir';

let tmp: TempDir;
beforeEach(() => {
  tmp = makeTempDir();
});
afterEach(() => tmp.remove());

it('loads proj4 only when a conversion needs it, not when the module is imported or a bundled zone is read', () => {
  const script = path.join(tmp.path, 'probe.mjs');
  writeFileSync(
    script,
    `import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const loaded = () => Object.keys(require.cache).some((k) => k.includes('/node_modules/proj4/'));
const p = await import(process.argv[2]);
const imported = loaded();
const { lat } = p.unprojector({ epsg: 26916 })(500000, 4640000);
const bundledZone = loaded();
const zones = p.zonesForExtent({ minX: 440000, minY: 4630000, maxX: 450000, maxY: 4640000 });
console.log(JSON.stringify({ imported, bundledZone, afterZones: loaded(), lat: Math.round(lat), some: zones.length > 0 }));
`,
  );
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', script, path.join(import.meta.dirname, 'projection.ts')],
    { encoding: 'utf8' },
  );
  expect(JSON.parse(out)).toEqual({
    imported: false,
    bundledZone: false,
    afterZones: true,
    lat: 42,
    some: true,
  });
});

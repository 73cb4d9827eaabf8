/**
 * Files that cannot be imported as a whole (issue 11, items 12 and 31) are refused by the preview
 * with one file-level message — never read as "nothing to import", nor cut short silently, nor
 * complained about on every row — on the one-thread preview and on the check threads alike.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportPreview } from '../../../src-shared/exports';
import { EngineError } from '../errors';
import { apiRow, openTestEngine, type TestEngine } from '../export/exportTesting';
import { Imports } from './imports';
import { InvalidUtf8, Utf8Chunks } from './utf8Text';

let t: TestEngine;
beforeEach(() => (t = openTestEngine()));
afterEach(() => t.close());

const emit = () => undefined;
/** The one-thread preview, and the check threads' (small chunks, so a file spans several). */
const previewers = () => ({
  'one thread': new Imports({ db: t.db, dataDir: t.dir.path, emit, query: t.engine.context.services.query }),
  'check threads': new Imports(
    { db: t.db, dataDir: t.dir.path, emit, query: t.engine.context.services.query },
    Date.now,
    {
      parallelMinBytes: 0,
      threads: 2,
      chunkChars: 300,
    },
  ),
});

function write(name: string, content: string | Buffer): string {
  const p = path.join(t.dir.path, name);
  writeFileSync(p, content);
  return p;
}

/** The preview's refusal: a bad_input EngineError (the page shows its message). */
async function refusal(imports: Imports, file: string): Promise<string> {
  const error = await imports.preview({ path: file }).then(
    (p: ImportPreview) => new Error(`previewed: ${p.rows} rows, ${p.errorCount} errors`),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EngineError);
  expect((error as EngineError).code).toBe('bad_input');
  return (error as EngineError).message;
}

const API_HEADER = 'cdid,type,address,lat,lon,link,date';
const apiLine = (cdid: number, address = `${cdid} Main St`) =>
  `${cdid},Theft,${address},41.88,-87.63,https://x.test/${cdid},05/10/25 01:30 PM`;
const apiCsv = (n: number) =>
  [API_HEADER, ...Array.from({ length: n }, (_, k) => apiLine(k + 1))].join('\n') + '\n';

describe('broken files are refused at file level', () => {
  it('JSON cut short, JSONP, JSON with text after it, JSON without records', async () => {
    const imports = previewers()['one thread'];
    const whole = JSON.stringify({ crimes: [apiRow(1), apiRow(2), apiRow(3)] });
    // Cut inside the last record: before, the first two were read and the third dropped silently.
    const cut = whole.slice(0, whole.lastIndexOf('"date"'));
    expect(await refusal(imports, write('cut.json', cut))).toMatch(/cut short after record 2/);
    // Cut just after a complete record: the array never closes.
    const cutAfter = whole.slice(0, whole.indexOf('},{') + 1);
    expect(await refusal(imports, write('cut2.json', cutAfter))).toMatch(/cut short after record 1/);
    expect(await refusal(imports, write('cb.json', `callback(${whole});`))).toMatch(/JSONP/);
    expect(await refusal(imports, write('two.json', `${whole}\n${whole}`))).toMatch(/more text after/);
    expect(await refusal(imports, write('none.json', '{"note":"hi"}\n'))).toMatch(/first record's fields/);
    expect(await refusal(imports, write('empty-array.json', '[]'))).toMatch(/holds no records/);
    // A whole file still reads whole.
    const ok = await imports.preview({ path: write('ok.json', whole) });
    expect(ok).toMatchObject({ rows: 3, valid: 3, errorCount: 0 });
  });

  for (const how of ['one thread', 'check threads'] as const) {
    it(`CSV on ${how}: empty, header only, an unclosed quote in the header or a row`, async () => {
      const imports = previewers()[how];
      expect(await refusal(imports, write('empty.csv', ''))).toMatch(/The file is empty/);
      expect(await refusal(imports, write('blank.csv', '\uFEFF\r\n\n'))).toMatch(/The file is empty/);
      expect(await refusal(imports, write('header.csv', `${API_HEADER}\r\n`))).toMatch(
        /header row but no records/,
      );
      expect(
        await refusal(
          imports,
          write('quote-header.csv', `"cdid,type,address,lat,lon,link,date\n${apiCsv(50)}`),
        ),
      ).toMatch(/^The header row opens a quoted field/);
      const rows = apiCsv(60).split('\n');
      rows[3] = apiLine(3, '"3 Main St, unit 4');
      expect(await refusal(imports, write('quote-row.csv', rows.join('\n')))).toMatch(
        /^Row 3 opens a quoted field \("\) that never closes/,
      );
    });

    it(`CSV on ${how}: columns that are not Blotter's are named once, with what was expected`, async () => {
      const imports = previewers()[how];
      const csv = [
        'Incident ID,Offense,Block,Latitude,Longitude,Reported',
        '1,Theft,1 Main,41.8,-87.6,2025-05-10',
      ];
      const message = await refusal(imports, write('other.csv', `${csv.join('\n')}\n`));
      expect(message).toMatch(/^This file's columns are not the ones Blotter reads\. Expected: cdid/);
      expect(message).toContain('Found: Incident ID, Offense, Block, Latitude, Longitude, Reported.');
      expect(message).toContain('Missing: cdid, type, a time (occurred_local and timezone, or date).');
    });

    it(`CSV on ${how}: a header of 100,000 columns is refused, saying how many are read`, async () => {
      const imports = previewers()[how];
      const header = `${API_HEADER},${Array.from({ length: 100_000 }, (_, k) => `c${k}`).join(',')}`;
      const message = await refusal(imports, write('wide.csv', `${header}\n${apiLine(1)}\n`));
      expect(message).toBe(
        'The file has 100,007 columns; at most 2,000 are read. Keep only the columns you need, and import it again.',
      );
      // The mapping editor's inspection too (it sent 21 MB of names and values to the page).
      const inspected = await imports.inspect({ path: write('wide.csv', `${header}\n${apiLine(1)}\n`) }).then(
        () => 'inspected',
        (e: Error) => e.message,
      );
      expect(inspected).toBe(message);
    });

    it(`CSV on ${how}: two columns giving one field (lat and LAT, cdid and id) are refused, naming both`, async () => {
      // The later column silently won: a row was placed at the second "lat" (10.5, off the map).
      const imports = previewers()[how];
      const row = (extra: string) => `${apiLine(1)},${extra}`;
      const lat = await refusal(imports, write('lat.csv', `${API_HEADER},LAT\n${row('10.5')}\n`));
      expect(lat).toBe(
        'The columns "lat" (column 4) and "LAT" (column 8) both give lat; which one to read would be a guess. Remove or rename one, and import the file again.',
      );
      const id = await refusal(imports, write('id.csv', `${API_HEADER}, id \n${row('2')}\n`));
      expect(id).toMatch(/^The columns "cdid" \(column 1\) and "id" \(column 8\) both give cdid;/);
      // Columns Blotter does not read may repeat (1,000 of one name).
      const extra = `,${Array.from({ length: 1_000 }, () => 'note').join(',')}`;
      const ok = await imports.preview({
        path: write('notes.csv', `${API_HEADER}${extra}\n${apiLine(1)}${',x'.repeat(1_000)}\n`),
      });
      expect(ok.valid).toBe(1);
    });

    it(`CSV on ${how}: bytes that are not UTF-8 are named by row and offset, not read as U+FFFD`, async () => {
      const imports = previewers()[how];
      // Two-byte characters throughout, so 1 MB reads cut characters in half (those must read fine).
      const rows = Array.from({ length: 30_000 }, (_, k) => apiLine(k + 1, `${k} Ünïön Straße`));
      const good = Buffer.from(`${API_HEADER}\n${rows.join('\n')}\n`, 'utf8');
      expect(good.length).toBeGreaterThan(1.5 * 1024 * 1024);
      const fine = await imports.preview({ path: write('good.csv', good) });
      expect(fine).toMatchObject({ rows: 30_000, valid: 30_000, errorCount: 0 });
      expect(fine.sample[0]?.address).toBe('0 Ünïön Straße');

      const row = 25_000; // past the first 1 MB read
      const prefix = `\n${row},Theft,${row - 1} `;
      const at = good.indexOf(Buffer.from(`${prefix}Ü`, 'utf8')) + Buffer.byteLength(prefix);
      const bad = Buffer.from(good);
      bad[at] = 0xff; // the first byte of Ü
      expect(await refusal(imports, write('latin1.csv', bad))).toBe(
        `The file is not UTF-8 text: byte ${at} (in row ${row}) cannot be read. Save the file as UTF-8 ` +
          '(in a spreadsheet: "CSV UTF-8") and import it again.',
      );
      const inHeader = Buffer.concat([Buffer.from('cdid,typ'), Buffer.from([0xe9]), good.subarray(8)]);
      expect(await refusal(imports, write('header-latin1.csv', inHeader))).toMatch(
        /^The file is not UTF-8 text: byte 8 \(in the header row\)/,
      );
      // A file that ends in half a character.
      const halfChar = Buffer.concat([good, Buffer.from(`${apiLine(30_001, 'x')}\xc3`, 'latin1')]);
      expect(await refusal(imports, write('half.csv', halfChar))).toMatch(
        new RegExp(`byte ${halfChar.length - 1} \\(in row 30001\\)`),
      );
    });
  }

  it('a JSON record with two fields giving one (cdid and id) is an error of its row; "__proto__" gives no field', async () => {
    // The later field silently won; "__proto__" became the record's prototype, so a record with
    // no cdid of its own read the one hidden inside it.
    const imports = previewers()['one thread'];
    const { cdid: _, ...noCdid } = apiRow(3);
    const text = `[${JSON.stringify(apiRow(1))},${JSON.stringify({ ...apiRow(2), id: 9 })},${JSON.stringify({
      ...noCdid,
      hidden: { cdid: 3 },
    }).replace('"hidden"', '"__proto__"')}]`;
    const p = await imports.preview({ path: write('twice.json', text) });
    expect(p.valid).toBe(1);
    expect(p.errors).toEqual([
      {
        row: 2,
        field: null,
        message: expect.stringMatching(/^This record's fields give cdid twice \("id" and another\)/),
      },
      { row: 3, field: 'cdid', message: expect.any(String) },
    ]);
  });

  it('a JSON or NDJSON record of megabytes is refused at file level, naming it, before it is parsed', async () => {
    // One record of 60 MB of empty objects froze the engine for 15 s (3 of them: 55 s, 3.8 GB).
    const imports = previewers()['one thread'];
    const huge = `{"cdid":2,"x":[${'{},'.repeat(2_000_000)}{}]}`;
    const expected =
      'Record 2 runs on for more than 4 MB of JSON; an incident record is a few hundred bytes. Check that the file is a list of incidents, and import it again.';
    expect(await refusal(imports, write('huge.json', `[${JSON.stringify(apiRow(1))},${huge}]`))).toBe(
      expected,
    );
    expect(await refusal(imports, write('huge.ndjson', `${JSON.stringify(apiRow(1))}\n${huge}\n`))).toBe(
      expected,
    );
    // A line of a NDJSON file split across many chunks is still read.
    const long = JSON.stringify(apiRow(3, { address: 'x'.repeat(3_000_000) }));
    const p = await imports.preview({
      path: write('long.ndjson', `${JSON.stringify(apiRow(1))}\n${long}\n`),
    });
    expect(p.rows).toBe(2);
    expect(p.errors.map((e) => e.field)).not.toContain(null); // each record parsed whole
  });

  it('JSON with bytes that are not UTF-8 names the record', async () => {
    const imports = previewers()['one thread'];
    const text = Buffer.from(JSON.stringify([apiRow(1), apiRow(2, { address: 'Caf_' })]), 'utf8');
    const bad = Buffer.from(text);
    const at = text.indexOf('Caf_') + 3;
    bad[at] = 0xe9; // é in Latin-1
    expect(await refusal(imports, write('latin1.json', bad))).toMatch(
      new RegExp(`^The file is not UTF-8 text: byte ${at} \\(in row 2\\)`),
    );
  });
});

describe('UTF-8 chunks', () => {
  it('decode any cut of valid text, and name the first bad byte wherever the cut falls', () => {
    const text = 'a,ü,北,🚓\n'.repeat(20);
    const bytes = Buffer.from(text, 'utf8');
    for (const size of [1, 2, 3, 5, 7, 64]) {
      const u = new Utf8Chunks();
      let out = '';
      for (let i = 0; i < bytes.length; i += size) out += u.decode(bytes.subarray(i, i + size));
      out += u.end();
      expect(out).toBe(text);
    }
    for (const bad of [0, 3, 17, 40, bytes.length - 2]) {
      const broken = Buffer.from(bytes);
      broken[bad] = 0xff;
      for (const size of [1, 4, 9, 1000]) {
        const u = new Utf8Chunks();
        let seen = '';
        let caught: unknown = null;
        try {
          for (let i = 0; i < broken.length; i += size) seen += u.decode(broken.subarray(i, i + size));
          u.end();
        } catch (error) {
          caught = error;
        }
        expect(caught, `byte ${bad}, chunks of ${size}`).toBeInstanceOf(InvalidUtf8);
        expect((caught as InvalidUtf8).offset, `byte ${bad}, chunks of ${size}`).toBeLessThanOrEqual(bad);
        expect(bad - (caught as InvalidUtf8).offset).toBeLessThan(4); // the character the byte is in
        expect(Buffer.byteLength(seen + (caught as InvalidUtf8).before)).toBe((caught as InvalidUtf8).offset);
      }
    }
  });
});

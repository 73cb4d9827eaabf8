/**
 * What kind of file an import is, from its first characters: JSON (an array, or an object holding
 * the records array), NDJSON (one JSON object per line), else CSV with a header row (fields
 * separated by commas, or by the tab, semicolon or bar the header uses) — Blotter's
 * own CSV when the header has occurred_local and timezone, otherwise rows shaped like the API's.
 * An empty file and JSONP are refused here, as file-level problems.
 */
import type { ImportFormat } from '../../../src-shared/exports';
import type { ColumnMapping } from '../../../src-shared/importMapping';
import { separatorOf } from './csvRecords';
import { FileProblem } from './fileProblem';
import { canonicalKey } from './normalize';
import { RECORD_KEYS } from './jsonRecords';

export type Detected = {
  reader: 'csv' | 'json' | 'ndjson';
  format: ImportFormat;
  /** A CSV file's field separator: a comma, or the tab, semicolon or bar its header uses. */
  separator?: string;
  /** Windows-1252 text (utf8Text.ts `encodingOf`); absent: UTF-8. */
  encoding?: 'windows-1252';
  /** Another system's columns, read through a column mapping (mapping/apply.ts). */
  mapping?: ColumnMapping;
};

/** JSON wrapped in a function call (`callback([...])`, JSONP): not a file Blotter reads. */
const JSONP = /^[A-Za-z_$][\w$.]*\s*\(\s*[[{]/;

/** The file's format; throws FileProblem for text that is no import file at all (empty, JSONP). */
export function detectFormat(head: string): Detected {
  const text = head.replace(/^\uFEFF/, '').trimStart();
  if (text === '') throw new FileProblem('The file is empty: there is nothing to import.');
  if (JSONP.test(text))
    throw new FileProblem(
      'The file is JSON wrapped in a function call (JSONP, such as callback([...])). Blotter reads plain ' +
        'JSON: remove the wrapper so the file starts with [ or {, and import it again.',
    );
  if (text.startsWith('['))
    return { reader: 'json', format: text.includes('"Feature"') ? 'geojson' : 'json' };
  if (text.startsWith('{')) {
    const first = text.split('\n', 1)[0] ?? '';
    const parsed = tryParse(first);
    if (parsed && typeof parsed === 'object' && !Object.keys(parsed).some((k) => RECORD_KEYS.has(k)))
      return { reader: 'ndjson', format: 'ndjson' };
    return {
      reader: 'json',
      format: /"FeatureCollection"|"Feature"/.test(text.slice(0, 4096)) ? 'geojson' : 'json',
    };
  }
  const separator = separatorOf(text);
  const header = (text.split(/\r?\n/, 1)[0] ?? '')
    .split(separator)
    .map((h) => canonicalKey(h.replace(/^"|"$/g, '')));
  return {
    reader: 'csv',
    separator,
    format: header.includes('occurred_local') && header.includes('timezone') ? 'blotter-csv' : 'api-csv',
  };
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

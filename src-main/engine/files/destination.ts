/**
 * Where an export goes: the path the host's save dialog chose, or a fresh name in the data
 * folder's exports/ (the web host offers it for download from there). The file is written to a
 * temporary name beside its destination and renamed when complete, so a reader never sees half a
 * file; its manifest goes beside it as `<name>.manifest.json`.
 */
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ExportFormat } from '../../../src-shared/exports';
import { EngineError } from '../errors';

export const EXTENSIONS: Record<ExportFormat, string> = {
  csv: '.csv',
  geojson: '.geojson',
  gpkg: '.gpkg',
  shp: '.zip',
  kml: '.kml',
  pdf: '.pdf',
};

/** Names the web host may serve from exports/: ours, nothing that could climb out of the folder. */
export const EXPORT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;

export const exportsDirOf = (dataDir: string): string => path.join(dataDir, 'exports');

const stamp = (now: number): string => {
  const d = new Date(now);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
};

/** The name a new export gets by default, e.g. blotter-incidents-2025-05-10-143012.csv. */
export function defaultFileName(format: ExportFormat, now: number): string {
  const what = format === 'pdf' ? 'report' : 'incidents';
  return `blotter-${what}-${stamp(now)}${EXTENSIONS[format]}`;
}

export type Destination = { path: string; name: string };

/** The file an export writes: the host's choice (an absolute path in an existing folder) or exports/. */
export function resolveDestination(
  dataDir: string,
  format: ExportFormat,
  chosen: string | undefined,
  jobId: string,
  now: number,
): Destination {
  if (chosen !== undefined) {
    if (!path.isAbsolute(chosen))
      throw new EngineError('bad_input', 'The export destination must be a full path.');
    const dir = path.dirname(chosen);
    if (!isDirectory(dir)) throw new EngineError('bad_input', `The folder ${dir} does not exist.`);
    // Checked now, not found by the rename after every row is written.
    if (isDirectory(chosen))
      throw new EngineError('bad_input', `${chosen} is a folder: give the export a file name in it.`);
    return { path: chosen, name: path.basename(chosen) };
  }
  const dir = exportsDirOf(dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const name = defaultFileName(format, now).replace(/(\.[a-z]+)$/, `-${jobId.slice(0, 6)}$1`);
  return { path: path.join(dir, name), name };
}

/** `report.pdf` → `report.manifest.json`, in the same folder. */
export function manifestPathOf(file: string): string {
  const ext = path.extname(file);
  return path.join(path.dirname(file), `${path.basename(file, ext)}.manifest.json`);
}

/** The temporary name a file is written under until it is complete. */
export const partPathOf = (file: string, jobId: string): string => `${file}.${jobId}.part`;

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

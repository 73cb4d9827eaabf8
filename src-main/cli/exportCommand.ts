/**
 * `export`: the app's export job (startExport) with the CLI answering the destination as a host:
 * `--out FILE` (the manifest goes beside it as FILE's name + .manifest.json, as in the app), or
 * stdout (the job writes into a private temporary folder; the file is copied to stdout and the
 * folder removed). The flags are the app's filters (filterFlags.ts), so a filter means the
 * same here as on the map; the rows and bytes are the one export pipeline's.
 */
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { CallInput, EngineEvent } from '../../src-shared/contract';
import { one, UsageError, type Parsed } from './args';
import { CallFailure } from './failure';
import { FILTER_FLAGS, filterFlags } from './filterFlags';
import { EXIT, type Io } from './io';
import { withSession, type Session } from './session';

export const EXPORT_FLAGS = {
  values: ['data-dir', 'format', 'out', ...FILTER_FLAGS],
  booleans: ['include-removed', 'bom', 'include-unplaced', 'help'],
};

type ExportProgress = Extract<EngineEvent, { type: 'exportProgress' }>;

const EXPORT_FORMATS = ['csv', 'geojson', 'gpkg', 'shp', 'kml'] as const;

export async function exportCommand(p: Parsed, io: Io): Promise<number> {
  const given = one(p, 'format', true);
  const format = EXPORT_FORMATS.find((f) => f === given);
  if (format === undefined)
    throw new UsageError(`--format must be csv, geojson, gpkg, shp or kml (got "${given}").`);
  const filtersIn = filterFlags(p);
  const outText = one(p, 'out');
  // A GeoPackage (SQLite) and a zipped shapefile are files to open, not streams to pipe.
  if ((format === 'gpkg' || format === 'shp') && outText === undefined)
    throw new UsageError(
      `--format ${format} needs --out FILE (a ${format === 'gpkg' ? '.gpkg' : '.zip'} file).`,
    );
  const out = outText === undefined ? undefined : path.resolve(outText);

  return withSession(io, one(p, 'data-dir'), async (s) => {
    const scratch = out === undefined ? mkdtempSync(path.join(tmpdir(), 'blotter-export-')) : null;
    try {
      const file = out ?? path.join(scratch as string, `export.${format}`);
      const done = await runExport(s, {
        format,
        filters: await filtersIn(s),
        ...(p.flags.has('bom') ? { bom: true } : {}),
        ...(p.flags.has('include-unplaced') ? { includeUnplaced: true } : {}),
        destination: { path: file },
      });
      if (scratch !== null) {
        try {
          await pipeline(createReadStream(file), process.stdout, { end: false });
        } catch (error) {
          // A reader that stops early (| head) closes the pipe: that is its choice, not a failure.
          if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
        }
      }
      io.err(
        `export: ${done.done} incidents written` +
          (out !== undefined && done.file
            ? ` to ${done.file.path} (manifest: ${done.file.manifestName})`
            : '') +
          '\n',
      );
      return EXIT.ok;
    } finally {
      if (scratch !== null) rmSync(scratch, { recursive: true, force: true });
    }
  });
}

/** Starts the export job and waits for its last progress event; ^C cancels it (exit 130). */
export async function runExport(s: Session, input: CallInput<'startExport'>): Promise<ExportProgress> {
  const seen: ExportProgress[] = [];
  let wake: () => void = () => undefined;
  const unsubscribe = s.onEvent((e) => {
    if (e.type !== 'exportProgress') return;
    seen.push(e);
    wake();
  });
  let jobId: string | undefined;
  const onSignal = (): void => {
    if (jobId) void s.call('cancelExport', { jobId }).catch(() => undefined);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    jobId = (await s.call('startExport', input)).jobId;
    for (;;) {
      const last = seen.find((e) => e.jobId === jobId && e.state !== 'running' && e.state !== 'printing');
      if (last) {
        if (last.state === 'done') return last;
        if (last.state === 'cancelled')
          throw new CallFailure('cancelled', 'Export interrupted; nothing was written.');
        throw new CallFailure(last.error?.code ?? 'internal', last.error?.message ?? 'The export failed.');
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    unsubscribe();
  }
}

/**
 * `export`: the app's export job (startExport) with the CLI answering the destination as a host:
 * `--out FILE` (the manifest goes beside it as FILE's name + .manifest.json, as in the app), or
 * stdout (the job writes into a private temporary folder; the file is copied to stdout and the
 * folder removed). The flags are the app's filters (src-shared/filters.ts), so a filter means the
 * same here as on the map; the rows and bytes are the one export pipeline's.
 */
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { CallInput, EngineEvent } from '../../src-shared/contract';
import { DatePreset, type Filters } from '../../src-shared/filters';
import { polygonOf } from './areasCommand';
import { one, parseArea, parseDayFlag, parseId, parseTypes, UsageError, type Parsed } from './args';
import { CallFailure } from './failure';
import { EXIT, type Io } from './io';
import { withSession, type Session } from './session';

export const EXPORT_FLAGS = {
  values: [
    'data-dir',
    'format',
    'out',
    'types',
    'from',
    'to',
    'preset',
    'hours',
    'weekdays',
    'text',
    'area',
    'area-id',
    'polygon',
  ],
  booleans: ['include-removed', 'bom', 'help'],
};

type ExportProgress = Extract<EngineEvent, { type: 'exportProgress' }>;

/** The app's filter state for the export flags. */
export function exportFilters(p: Parsed): Filters {
  const typesText = one(p, 'types');
  const fromText = one(p, 'from');
  const toText = one(p, 'to');
  const presetText = one(p, 'preset');
  const hoursText = one(p, 'hours');
  const weekdaysText = one(p, 'weekdays');
  const text = one(p, 'text');
  const areaText = one(p, 'area');
  const areaIdText = one(p, 'area-id');
  const polygonFile = one(p, 'polygon');
  if ([areaText, areaIdText, polygonFile].filter((a) => a !== undefined).length > 1)
    throw new UsageError('Give one of --area, --area-id and --polygon.');
  if (presetText !== undefined && (fromText !== undefined || toText !== undefined))
    throw new UsageError('Give --preset or --from/--to, not both.');
  const filters: Filters = {
    ...(typesText ? { types: parseTypes(typesText) } : {}),
    ...(fromText ? { from: parseDayFlag('from', fromText) } : {}),
    ...(toText ? { to: parseDayFlag('to', toText) } : {}),
    ...(presetText ? { preset: parsePreset(presetText) } : {}),
    ...(hoursText ? { hours: parseHours(hoursText) } : {}),
    ...(weekdaysText ? { weekdays: parseWeekdays(weekdaysText) } : {}),
    ...(text ? { text } : {}),
    ...(areaText ? { area: { circle: toCircle(parseArea(areaText)) } } : {}),
    ...(areaIdText ? { area: { areaId: parseId('--area-id', areaIdText) } } : {}),
    ...(polygonFile ? { area: { polygon: polygonOf(polygonFile).points } } : {}),
    ...(p.flags.has('include-removed') ? { includeRemoved: true } : {}),
  };
  if (filters.from && filters.to && filters.from > filters.to)
    throw new UsageError('--from must not be after --to.');
  return filters;
}

function parsePreset(text: string): DatePreset {
  const r = DatePreset.safeParse(text);
  if (!r.success)
    throw new UsageError(`--preset must be one of ${DatePreset.options.join(', ')} (got "${text}").`);
  return r.data;
}

/** `START-END` local hours, END exclusive: 22-6 wraps past midnight (the app's hour filter). */
function parseHours(text: string): [number, number] {
  const m = /^(\d{1,2})-(\d{1,2})$/.exec(text.trim());
  const start = Number(m?.[1]);
  const end = Number(m?.[2]);
  if (!m || start > 23 || end > 24)
    throw new UsageError(`--hours must be START-END in local hours, e.g. 22-6 (got "${text}").`);
  return [start, end];
}

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** `sat,sun` (names, at least three letters) or `0,6` (Sunday 0) → the app's weekday numbers. */
function parseWeekdays(text: string): number[] {
  return text.split(',').map((w) => {
    const word = w.trim().toLowerCase();
    const day = /^[0-6]$/.test(word)
      ? Number(word)
      : WEEKDAYS.findIndex((name) => word.length >= 3 && name.startsWith(word));
    if (day < 0)
      throw new UsageError(`--weekdays takes day names or 0-6, e.g. --weekdays sat,sun (got "${w}").`);
    return day;
  });
}

const toCircle = ({ lat, lon, radiusMi }: { lat: number; lon: number; radiusMi: number }) => ({
  lat,
  lon,
  radiusMi,
});

const EXPORT_FORMATS = ['csv', 'geojson', 'gpkg', 'shp', 'kml'] as const;

export async function exportCommand(p: Parsed, io: Io): Promise<number> {
  const given = one(p, 'format', true);
  const format = EXPORT_FORMATS.find((f) => f === given);
  if (format === undefined)
    throw new UsageError(`--format must be csv, geojson, gpkg, shp or kml (got "${given}").`);
  const filters = exportFilters(p);
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
        filters,
        ...(p.flags.has('bom') ? { bom: true } : {}),
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
async function runExport(s: Session, input: CallInput<'startExport'>): Promise<ExportProgress> {
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

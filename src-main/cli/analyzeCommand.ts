/**
 * `analyze hotspots | kde | near-repeat | compstat`: the app's analysis calls (analyzeHotSpots,
 * analyzeKde, analyzeNearRepeat, analyzeCompStat) on the filters the export takes (the same
 * flags, the same filter engine), written to --out. The file carries the parameters (defaults
 * resolved) and provenance; the last stdout line is a JSON summary with the parameters used, so
 * the defaults are printed. Progress goes to stderr; ^C cancels the run (exit 130). Fewer than
 * 30 incidents: the engine's refusal, exit 2. CompStat's periods are set by --as-of (or today)
 * alone: the date flags do not apply to it; the other filters do. `compstat --layer N` without
 * --feature gives one table per feature of the layer (beats, districts), as CSV or JSON.
 */
import { writeFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { compStatAsOfProblem } from '../../src-shared/analysis';
import type { CallInput, CallName, CallOutput } from '../../src-shared/contract';
import type { Filters } from '../../src-shared/filters';
import { one, UsageError, type Parsed } from './args';
import { FILTER_FLAGS, filterFlags, layerOf } from './filterFlags';
import { EXIT, type Io } from './io';
import { withSession, type Session } from './session';

const SUBCOMMANDS = ['hotspots', 'kde', 'near-repeat', 'compstat'] as const;

export const ANALYZE_FLAGS = {
  values: [
    'data-dir',
    ...FILTER_FLAGS,
    'format',
    'out',
    'grid',
    'cell-size-m',
    'distance-band-m',
    'radius-m',
    'space-bands-m',
    'space-bands-ft',
    'time-bands-days',
    'iterations',
    'seed',
    'as-of',
  ],
  booleans: ['include-removed', 'help'],
  words: 1,
};

function positive(p: Parsed, flag: string): number | undefined {
  const text = one(p, flag);
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0)
    throw new UsageError(`--${flag} must be a positive number (got "${text}").`);
  return n;
}

function integer(p: Parsed, flag: string, min: number, max: number): number | undefined {
  const text = one(p, flag);
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`--${flag} must be a whole number from ${min} to ${max} (got "${text}").`);
  return n;
}

/** `0,120,240`: ascending numbers, at least two. */
function bands(flag: string, text: string): number[] {
  const values = text.split(',').map((t) => Number(t.trim()));
  if (
    values.length < 2 ||
    values.some((v, i) => !Number.isFinite(v) || v < 0 || (i > 0 && v <= (values[i - 1] as number)))
  )
    throw new UsageError(
      `--${flag} takes ascending numbers separated by commas, e.g. 0,7,14 (got "${text}").`,
    );
  return values;
}

function choice<T extends string>(p: Parsed, flag: string, options: readonly T[], fallback?: T): T {
  const text = one(p, flag) ?? fallback;
  if (text === undefined) throw new UsageError(`--${flag} is required (${options.join(' or ')}).`);
  if (!options.includes(text as T))
    throw new UsageError(`--${flag} must be ${options.join(' or ')} (got "${text}").`);
  return text as T;
}

/** Writes through a temporary name, so a failed or interrupted run leaves no half file. */
function writeOut(file: string, data: string | Uint8Array): number {
  const part = `${file}.part`;
  writeFileSync(part, data);
  renameSync(part, file);
  return typeof data === 'string' ? Buffer.byteLength(data) : data.length;
}

export async function analyzeCommand(p: Parsed, io: Io): Promise<number> {
  const [sub] = p.words;
  if (!SUBCOMMANDS.includes(sub as (typeof SUBCOMMANDS)[number]))
    throw new UsageError(`Say which analysis: analyze ${SUBCOMMANDS.join(' | ')}.`);
  // `analyze compstat --layer beats` (no --feature): one table per feature of the layer.
  const byLayer = sub === 'compstat' && one(p, 'feature') === undefined ? one(p, 'layer') : undefined;
  const filters = filterFlags(byLayer === undefined ? p : withoutFlag(p, 'layer'));
  const out = path.resolve(one(p, 'out', true));

  if (sub === 'hotspots') {
    if (one(p, 'format') !== undefined && one(p, 'format') !== 'geojson')
      throw new UsageError('analyze hotspots writes GeoJSON (--format geojson).');
    const grid = choice(p, 'grid', ['square', 'hexagon'] as const, 'square');
    const cellSizeM = positive(p, 'cell-size-m');
    const distanceBandM = positive(p, 'distance-band-m');
    return run(
      io,
      p,
      filters,
      'analyzeHotSpots',
      { grid, ...(cellSizeM ? { cellSizeM } : {}), ...(distanceBandM ? { distanceBandM } : {}) },
      (r) => {
        const bytes = writeOut(out, JSON.stringify(r.geojson));
        const bins: Record<string, number> = {};
        for (const f of r.geojson.features) {
          const b = String(f.properties.bin ?? 0);
          bins[b] = (bins[b] ?? 0) + 1;
        }
        return { bytes, parameters: r.geojson.parameters, cells: r.geojson.features.length, bins };
      },
    );
  }
  if (sub === 'kde') {
    const format = choice(p, 'format', ['geojson', 'geotiff'] as const);
    const radiusM = positive(p, 'radius-m');
    const cellSizeM = positive(p, 'cell-size-m');
    return run(
      io,
      p,
      filters,
      'analyzeKde',
      { format, ...(radiusM ? { radiusM } : {}), ...(cellSizeM ? { cellSizeM } : {}) },
      (r) => {
        const bytes =
          format === 'geojson'
            ? writeOut(out, JSON.stringify(r.geojson))
            : writeOut(out, Buffer.from(r.geotiffBase64 ?? '', 'base64'));
        return { bytes, parameters: r.parameters, max: r.max };
      },
    );
  }
  if (sub === 'near-repeat') {
    if (one(p, 'format') !== undefined && one(p, 'format') !== 'json')
      throw new UsageError('analyze near-repeat writes JSON (--format json).');
    const m = one(p, 'space-bands-m');
    const ft = one(p, 'space-bands-ft');
    if ((m === undefined) === (ft === undefined))
      throw new UsageError(
        'Give the distance bands as --space-bands-m 0,120,240 or --space-bands-ft 0,400,800 (one of them).',
      );
    const time = one(p, 'time-bands-days', true);
    const iterations = integer(p, 'iterations', 1, 9999);
    const seed = integer(p, 'seed', 0, 2 ** 31 - 1);
    const input: AnalyzeInput<'analyzeNearRepeat'> = {
      spaceBands: m !== undefined ? bands('space-bands-m', m) : bands('space-bands-ft', ft as string),
      spaceUnit: m !== undefined ? 'm' : 'ft',
      timeBandsDays: bands('time-bands-days', time),
      ...(iterations ? { iterations } : {}),
      ...(seed !== undefined ? { seed } : {}),
    };
    return run(io, p, filters, 'analyzeNearRepeat', input, (r) => {
      const { jobId: _jobId, ...file } = r;
      const bytes = writeOut(out, JSON.stringify(file, null, 2) + '\n');
      for (const line of r.summary) io.err(`${line}\n`);
      return { bytes, parameters: r.parameters, significant: r.cells.filter((c) => c.significant).length };
    });
  }
  const format = choice(p, 'format', ['json', 'csv'] as const);
  const asOf = one(p, 'as-of');
  const asOfProblem = asOf === undefined ? null : compStatAsOfProblem(asOf);
  if (asOfProblem) throw new UsageError(`--as-of: ${asOfProblem}`);
  const input = async (s: Session): Promise<AnalyzeInput<'analyzeCompStat'>> => ({
    format,
    ...(asOf ? { asOf } : {}),
    ...(byLayer !== undefined ? { layerId: (await layerOf(s, byLayer)).id } : {}),
  });
  return run(io, p, filters, 'analyzeCompStat', input, (r) => {
    const { jobId: _jobId, csv, ...file } = r;
    const bytes =
      format === 'csv' ? writeOut(out, csv ?? '') : writeOut(out, JSON.stringify(file, null, 2) + '\n');
    return {
      bytes,
      parameters: r.parameters,
      areas: r.areas.map((a) => ({
        area: a.area,
        ...(a.feature ? { layer: a.feature.layer } : {}),
        today: a.today,
        notes: a.notes,
      })),
    };
  });
}

/** The parsed command line without one flag. */
function withoutFlag(p: Parsed, name: string): Parsed {
  const values = new Map(p.values);
  values.delete(name);
  return { ...p, values };
}

type AnalyzeCall = 'analyzeHotSpots' | 'analyzeKde' | 'analyzeNearRepeat' | 'analyzeCompStat';
/** A call's input but the filters, which the session finishes (a feature named on the command line). */
type AnalyzeInput<K extends AnalyzeCall> = Omit<CallInput<K>, 'filters' | 'jobId'>;

async function run<K extends AnalyzeCall & CallName>(
  io: Io,
  p: Parsed,
  filtersIn: (s: Session) => Promise<Filters>,
  name: K,
  input: AnalyzeInput<K> | ((s: Session) => Promise<AnalyzeInput<K>>),
  write: (r: CallOutput<K>) => Record<string, unknown>,
): Promise<number> {
  return withSession(io, one(p, 'data-dir'), async (s) => {
    const jobId = `cli-${process.pid}-${Date.now().toString(36)}`;
    const filters = await filtersIn(s);
    const given = typeof input === 'function' ? await input(s) : input;
    const r = await follow(s, io, jobId, () => s.call(name, { ...given, filters, jobId } as CallInput<K>));
    const summary = write(r);
    io.err(`analyze: ${r.provenance.incidents} incidents; written to ${path.resolve(one(p, 'out', true))}\n`);
    io.out(
      JSON.stringify({
        analysis: p.words[0],
        out: path.resolve(one(p, 'out', true)),
        incidents: r.provenance.incidents,
        ...summary,
      }) + '\n',
    );
    return EXIT.ok;
  });
}

/** Runs the call with progress on stderr (whole tens of percent) and ^C cancelling it. */
async function follow<T>(s: Session, io: Io, jobId: string, call: () => Promise<T>): Promise<T> {
  let lastTen = -1;
  const unsubscribe = s.onEvent((e) => {
    if (e.type !== 'analysisProgress' || e.jobId !== jobId || e.state !== 'running') return;
    const ten = Math.floor(e.fraction * 10);
    if (ten > lastTen && ten > 0) {
      lastTen = ten;
      io.err(`analyze: ${ten * 10}%\n`);
    }
  });
  const onSignal = (): void => void s.call('cancelAnalysis', { jobId }).catch(() => undefined);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    return await call();
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    unsubscribe();
  }
}

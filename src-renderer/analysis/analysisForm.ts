/**
 * The Analysis form's own checks, said beside each field (issue 25 item 10: not the browser's
 * validation popups). The bounds are the calls' input schemas' (src-shared/analysis.ts); what the
 * engine refuses beyond them (a grid too fine for its area) comes back as the run's error.
 */
import type { AnalysisCall } from './useAnalysisRun';

export type AnalysisFields = {
  cellSize: string;
  band: string;
  radius: string;
  spaceBands: string;
  timeBands: string;
  distance: string;
};
export type AnalysisFieldErrors = Partial<Record<keyof AnalysisFields, string>>;

const METRES_MAX = 100_000;

/** Empty (the analysis's own default) or a number of metres above 0. */
function metres(text: string, what: string): string | undefined {
  if (text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) && n > 0 && n <= METRES_MAX
    ? undefined
    : `${what}: a number of metres above 0 (at most 100,000), or empty for the default.`;
}

/** Two to twenty numbers of 0 or more, separated by commas, each larger than the one before. */
function bands(text: string, what: string, example: string): string | undefined {
  const parts = text.split(',').map((t) => t.trim());
  const values = parts.map(Number);
  const ok =
    parts.length >= 2 &&
    parts.length <= 20 &&
    parts.every((t) => t !== '') &&
    values.every((v) => Number.isFinite(v) && v >= 0 && v <= 1_000_000) &&
    values.every((v, i) => i === 0 || v > (values[i - 1] as number));
  return ok
    ? undefined
    : `${what}: two or more numbers, separated by commas, each larger than the last (${example}).`;
}

/** The problems of the fields the chosen analysis uses; empty when it may run. */
export function analysisFieldErrors(kind: AnalysisCall, f: AnalysisFields): AnalysisFieldErrors {
  const errors: AnalysisFieldErrors = {};
  const put = (key: keyof AnalysisFields, message: string | undefined) => {
    if (message) errors[key] = message;
  };
  if (kind === 'analyzeHotSpots') {
    put('cellSize', metres(f.cellSize, 'Cell size'));
    put('band', metres(f.band, 'Distance band'));
  } else if (kind === 'analyzeKde') {
    put('radius', metres(f.radius, 'Search radius'));
    put('cellSize', metres(f.cellSize, 'Cell size'));
  } else if (kind === 'analyzeNearRepeat') {
    put('spaceBands', bands(f.spaceBands, 'Distance bands', 'e.g. 0,400,800'));
    put('timeBands', bands(f.timeBands, 'Day bands', 'e.g. 0,7,14'));
  } else if (kind === 'analyzeRepeatLocations') {
    const n = Number(f.distance);
    if (f.distance.trim() === '' || !Number.isFinite(n) || n < 0 || n > 10_000)
      errors.distance = 'Group within: a number of metres from 0 (the same point) to 10,000.';
  }
  return errors;
}

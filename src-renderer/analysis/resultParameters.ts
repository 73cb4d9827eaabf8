/**
 * What made an analysis result, in words beside its legend (issue 26, item 5: "auto" cell size and
 * band appeared only in the PDF; the density legend had no radius or period): the values the
 * engine resolved — marked "auto" where the form left them to the analysis — the period the
 * filters covered and how many incidents were counted. Pure.
 */
import { dayRangeText } from '../../src-shared/localTime';
import type { AnalysisResult } from './analysisSession';

export type ResultParameter = { label: string; value: string };

const NUMBER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const n = (v: unknown) => NUMBER.format(Number(v));
const metres = (v: unknown) => `${n(v)} m`;
const auto = (given: unknown, how: string) => (given === undefined ? ` (auto: ${how})` : '');

function period(range: { from: string | null; to: string | null } | undefined): string {
  if (!range?.from && !range?.to) return 'All dates the archive holds';
  if (range.from && range.to) return dayRangeText(range.from, range.to);
  return range.from ? `From ${dayRangeText(range.from, range.from)}` : `Up to ${range.to}`;
}

export function resultParameters(result: AnalysisResult): ResultParameter[] {
  const value = result.value as {
    provenance: { incidents: number; coverage: { range: { from: string | null; to: string | null } } };
    parameters?: Record<string, unknown>;
    geojson?: { parameters: Record<string, unknown> };
  };
  const input = result.input;
  const out: ResultParameter[] = [];
  const put = (label: string, text: string) => out.push({ label, value: text });
  if (result.call === 'analyzeHotSpots') {
    const p = value.geojson?.parameters ?? {};
    put('Grid', p.grid === 'hexagon' ? 'Hexagons' : 'Squares');
    put('Cell size', metres(p.cell_size_m) + auto(input.cellSizeM, 'about 2,500 cells'));
    put('Distance band', metres(p.distance_band_m) + auto(input.distanceBandM, '2 cells'));
    put(
      'Cells',
      `${n(p.cells)}${Number(p.masked_cells) > 0 ? ` (${n(p.masked_cells)} outside the areas)` : ''}`,
    );
  } else if (result.call === 'analyzeKde') {
    const p = value.parameters ?? {};
    put('Kernel radius', metres(p.radius_m) + auto(input.radiusM, "ArcGIS's default"));
    put('Cell size', metres(p.cell_size_m) + auto(input.cellSizeM, 'radius / 10'));
    put('Kernel', String(p.kernel ?? 'quartic'));
  } else if (result.call === 'analyzeNearRepeat') {
    const p = value.parameters ?? {};
    const unit = String(p.space_unit ?? 'm');
    put('Distance bands', `${(p.space_bands as number[]).join(', ')} ${unit}`);
    put('Day bands', (p.time_bands_days as number[]).join(', '));
    put('Permutations', n(p.iterations));
  } else if (result.call === 'analyzeRepeatLocations') {
    const d = Number(value.parameters?.distance_m ?? 0);
    put('Places', d > 0 ? `incidents within ${n(d)} m of one another` : 'by block address');
  }
  put('Period', period(value.provenance?.coverage?.range));
  put('Incidents counted', n(value.provenance?.incidents ?? 0));
  return out;
}

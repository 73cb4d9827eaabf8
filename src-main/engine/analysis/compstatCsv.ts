/**
 * CompStat as CSV (the export's CSV rules: RFC 4180, CRLF, formula-looking text neutralised): one
 * row per table (area or boundary feature) × row (group, type or total) × period × comparison
 * ("days before": the days just before, "year earlier": the same days a year earlier) with both
 * sides' days, the counts, the change and percent change (empty below a base of 10). A comparison
 * the archive cannot make has empty base, change and percent, and `compared` false; the table's
 * notes and the parameters and provenance go in `#` comment lines first, so the file says what it
 * was computed from.
 */
import { csvField } from '../files/csv';
import type { CompStatResult } from './compstat';

export const COMPSTAT_CSV_COLUMNS = [
  'area',
  'layer',
  'feature_id',
  'zone',
  'today',
  'row',
  'row_kind',
  'period',
  'current_from',
  'current_to',
  'current',
  'comparison',
  'base_from',
  'base_to',
  'compared',
  'base',
  'change',
  'percent_change',
] as const;

export function compStatCsv(
  result: Pick<CompStatResult, 'areas' | 'parameters'>,
  provenance: unknown = {},
): string {
  const lines: string[] = [
    `# parameters: ${JSON.stringify(result.parameters)}`,
    `# provenance: ${JSON.stringify(provenance)}`,
    ...result.areas.flatMap((a) => a.notes.map((n) => `# note (${a.area}): ${n.replace(/[\r\n]+/g, ' ')}`)),
    COMPSTAT_CSV_COLUMNS.join(','),
  ];
  for (const a of result.areas)
    for (const row of a.rows)
      a.periods.forEach((period, k) => {
        const cell = row.cells[k];
        if (!cell) return;
        const sides = [
          { name: 'days before', side: period.prior, value: cell.prior },
          { name: 'year earlier', side: period.yearAgo, value: cell.yearAgo },
        ];
        for (const { name, side, value } of sides) {
          if (!side) continue;
          lines.push(
            [
              csvField(a.area),
              csvField(a.feature?.layer ?? ''),
              a.feature ? String(a.feature.featureId) : '',
              csvField(a.zone),
              a.today,
              csvField(row.label),
              row.kind,
              csvField(period.label),
              period.current.from,
              period.current.to,
              csvField(cell.current, true),
              name,
              side.from,
              side.to,
              side.compared ? 'true' : 'false',
              value ? csvField(value.base, true) : '',
              value ? csvField(value.change, true) : '',
              value ? csvField(value.percent, true) : '',
            ].join(','),
          );
        }
      });
  return lines.join('\r\n') + '\r\n';
}

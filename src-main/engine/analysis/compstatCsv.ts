/**
 * CompStat as CSV (the export's CSV rules: RFC 4180, CRLF, formula-looking text neutralised): one
 * row per area × type × period with both sides' dates, counts, the difference, percent change
 * (empty below a base of 10) and the period's coverage caveat; the parameters and provenance go
 * in `#` comment lines first, so the file says what it was computed from.
 */
import { csvField } from '../export/csv';
import type { CompStatResult } from './compstat';

export const COMPSTAT_CSV_COLUMNS = [
  'area',
  'zone',
  'today',
  'type',
  'period',
  'current_from',
  'current_to',
  'current',
  'previous_from',
  'previous_to',
  'previous',
  'difference',
  'percent_change',
  'current_coverage',
  'previous_coverage',
  'caveat',
] as const;

export function compStatCsv(
  result: Pick<CompStatResult, 'areas' | 'parameters'>,
  provenance: unknown = {},
): string {
  const lines: string[] = [
    `# parameters: ${JSON.stringify(result.parameters)}`,
    `# provenance: ${JSON.stringify(provenance)}`,
    COMPSTAT_CSV_COLUMNS.join(','),
  ];
  for (const a of result.areas)
    for (const row of a.rows)
      a.periods.forEach((period, k) => {
        const cell = row.cells[k];
        if (!cell) return;
        lines.push(
          [
            csvField(a.area),
            csvField(a.zone),
            a.today,
            csvField(row.type),
            csvField(period.label),
            period.current.from,
            period.current.to,
            csvField(cell.current, true),
            period.previous.from,
            period.previous.to,
            csvField(cell.previous, true),
            csvField(cell.difference, true),
            csvField(cell.percent, true),
            period.current.coverage,
            period.previous.coverage,
            csvField(period.caveat),
          ].join(','),
        );
      });
  return lines.join('\r\n') + '\r\n';
}

/**
 * The bulletin's headline (issue 27, item 2): written from the figures, at most five sentences —
 * the biggest rise and fall with their counts, the hot spots, a near-repeat pattern, the missing
 * days — and under CompStat's floor a plain "too few to compare" instead of comparisons.
 */
import { describe, expect, it } from 'vitest';
import type { CompStatArea } from '../../../src-shared/reportAnalyses';
import { bulletinHeadline, typeChanges, type HeadlineFigures } from './bulletinHeadline';

const side = (from: string, to: string) => ({ from, to, coverage: 'complete', held: 7 });

/** A table whose last-7-days period compares with the 7 before; rows [label, current, base]. */
function table(rows: [string, number, number][], compared = true): CompStatArea {
  return {
    areaId: 1,
    area: 'Downtown',
    zone: 'America/Los_Angeles',
    today: '2026-11-28',
    periods: [
      {
        key: 'week_to_date',
        label: 'Week to date',
        current: side('2026-11-23', '2026-11-28'),
        prior: { ...side('2026-11-16', '2026-11-21'), compared: true },
        yearAgo: { ...side('2025-11-24', '2025-11-29'), compared: false },
      },
      {
        key: 'last_7_days',
        label: 'Last 7 days',
        current: side('2026-11-22', '2026-11-28'),
        prior: { ...side('2026-11-15', '2026-11-21'), compared },
        yearAgo: { ...side('2025-11-23', '2025-11-29'), compared: false },
      },
    ],
    rows: [
      {
        label: 'Total',
        kind: 'total',
        types: [],
        cells: [
          { current: 99, prior: null, yearAgo: null },
          { current: 99, prior: { base: 1, change: 98, percent: null }, yearAgo: null },
        ],
      },
      ...rows.map(([label, current, base]) => ({
        label,
        kind: 'type' as const,
        types: [label],
        cells: [
          { current: 0, prior: null, yearAgo: null },
          {
            current,
            prior: compared
              ? {
                  base,
                  change: current - base,
                  percent: base >= 10 ? ((current - base) / base) * 100 : null,
                }
              : null,
            yearAgo: null,
          },
        ],
      })),
    ],
    notes: [],
  };
}

const figures = (over: Partial<HeadlineFigures> = {}): HeadlineFigures => ({
  place: 'Downtown',
  total: 64,
  minIncidents: 30,
  compStat: table([
    ['Theft', 24, 15],
    ['Burglary', 3, 9],
    ['Assault', 10, 8],
    ['Robbery', 4, 6],
  ]),
  hotSpotBins: { '3': 2, '2': 3, '1': 1, '0': 40, '-1': 0, '-2': 0, '-3': 0 },
  nearRepeat: {
    significant: true,
    sentence:
      'Near repeats over 12 weeks: incidents within 200 m of one another are 2.1× as likely as chance within 7 days (p = 0.01).',
  },
  gaps: [],
  ...over,
});

describe('the bulletin’s headline', () => {
  it('names the biggest rise and fall with their counts, the hot spots and the near repeats', () => {
    const h = bulletinHeadline(figures());
    expect(h).toEqual([
      '64 incidents in Downtown.',
      'Theft rose most: 24 in the last 7 days against 15 in the 7 before (+9, +60 %).',
      'Burglary fell most: 3 in the last 7 days against 9 in the 7 before (−6).',
      '5 hot spot cells are significant at 95 % confidence or more (Gi*), 2 of them at 99 %.',
      'Near repeats over 12 weeks: incidents within 200 m of one another are 2.1× as likely as chance within 7 days (p = 0.01).',
    ]);
  });

  it('keeps at most five sentences, the missing days among them', () => {
    const h = bulletinHeadline(
      figures({
        gaps: [
          { from: '2026-11-20', to: '2026-11-21' },
          { from: '2026-11-25', to: '2026-11-25' },
        ],
      }),
    );
    expect(h).toHaveLength(5);
    expect(h.at(-1)).toMatch(/^The archive is missing 3 days \(.*2026.*\): counts over them are too low\.$/);
    expect(h.join(' ')).toContain('Theft rose most');
    expect(h.join(' ')).toContain('Burglary fell most');
    expect(h.join(' ')).not.toMatch(/\d{4}-\d{2}-\d{2}/); // dates in words, never ISO
    expect(h.join(' ')).not.toContain('64 incidents in Downtown'); // the least telling went
  });

  it('says the numbers are too few to compare under the floor, and compares nothing', () => {
    const h = bulletinHeadline(figures({ total: 12 }));
    expect(h).toEqual([
      'Only 12 incidents in Downtown: too few to compare (the comparisons need at least 30).',
    ]);
    const withGap = bulletinHeadline(figures({ total: 1, gaps: [{ from: '2026-11-20', to: '2026-11-20' }] }));
    expect(withGap[0]).toMatch(/^Only 1 incident in Downtown/);
    expect(withGap[1]).toMatch(/^The archive is missing 1 day /);
  });

  it('says when nothing changed, when the week before is not held, and when there are no hot spots', () => {
    const flat = bulletinHeadline(
      figures({
        compStat: table([['Theft', 5, 5]]),
        hotSpotBins: { '3': 0, '2': 0, '1': 2, '0': 30 },
        nearRepeat: null,
      }),
    );
    expect(flat).toContain('No type changed from the 7 days before.');
    expect(flat).toContain('No significant hot spot (Gi*, 95 % confidence).');
    const unheld = bulletinHeadline(figures({ compStat: table([['Theft', 5, 1]], false) }));
    expect(unheld).toContain(
      'The archive does not hold the 7 days before the last 7, so no change can be given.',
    );
    expect(typeChanges(table([['Theft', 5, 1]], false))).toBeNull();
  });

  it('reads the period by its key, not its place, and only type rows', () => {
    const t = table([['Arson', 7, 2]]);
    t.periods.reverse();
    t.rows.forEach((r) => r.cells.reverse());
    expect(typeChanges(t)).toEqual([{ label: 'Arson', current: 7, base: 2, change: 5, percent: null }]);
  });
});

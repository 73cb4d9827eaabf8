import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN_PERCENT_BASE, percentChange } from '../../../src-shared/percentChange';
import { incidentCalls } from './calls';
import { closeFixture, openFixture, referenceCounts, type Fixture } from './testFixtures';

describe('percent change needs a base of at least MIN_PERCENT_BASE', () => {
  it('gives no percentage below the minimum base, one from it on', () => {
    expect(MIN_PERCENT_BASE).toBe(10);
    expect(percentChange(1027, 2)).toBeNull(); // was "+51250 %"
    expect(percentChange(5, 0)).toBeNull();
    expect(percentChange(12, 9)).toBeNull();
    expect(percentChange(15, 10)).toBe(50);
    expect(percentChange(9, 12)).toBe(-25);
  });

  describe('comparePeriods', () => {
    let f: Fixture;
    beforeAll(() => {
      f = openFixture(); // ledger-covered from 2023-12-01; the last 2 days are provisional
    });
    afterAll(() => closeFixture(f));

    it('shows counts, not a percent, against a small previous period', async () => {
      // A short period and one type: the previous period holds a handful of incidents.
      const types = ['Arson'];
      let found = false;
      for (let d = 1; d <= 28 && !found; d++) {
        const day = `2025-01-${String(d).padStart(2, '0')}`;
        const r = await incidentCalls.comparePeriods(f.service, { filters: { types }, from: day, to: day });
        if (r.previous.total === 0 || r.previous.total >= MIN_PERCENT_BASE) continue;
        found = true;
        const prev = referenceCounts(f.db, "removed_at IS NULL AND type = 'Arson' AND local_day = ?", [
          r.previous.from,
        ]).total;
        expect(r.previous.total).toBe(prev);
        expect(r.vsPrevious.absolute).toBe(r.current.total - r.previous.total);
        expect(r.vsPrevious.percent).toBeNull();
        expect(r.vsPrevious.note).toMatch(/fewer than 10\), so the change is given in counts/);
      }
      expect(found).toBe(true);
    });

    it('keeps the percentage when the base is large enough', async () => {
      const r = await incidentCalls.comparePeriods(f.service, {
        filters: {},
        from: '2025-01-01',
        to: '2025-01-31',
      });
      expect(r.previous.total).toBeGreaterThanOrEqual(MIN_PERCENT_BASE);
      expect(r.vsPrevious.percent).toBeCloseTo(
        (100 * (r.current.total - r.previous.total)) / r.previous.total,
        1,
      );
    });
  });
});

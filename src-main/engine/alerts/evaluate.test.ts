import { afterEach, describe, expect, it } from 'vitest';
import type { AlertRuleInput } from '../../../src-shared/alerts';
import { listAlerts, unreadCount } from './inbox';
import { createRuleStore } from './rules';
import { testRule } from './ruleTest';
import {
  addArea,
  cdid,
  CENTER,
  commit,
  craftedArchive,
  DAY,
  HOUR,
  insertIncident,
  T0,
  type Crafted,
} from './testing/crafted';

let c: Crafted | null = null;
afterEach(() => {
  c?.close();
  c = null;
});

function setup(rule: AlertRuleInput, area: { backfilled?: boolean } = {}) {
  c = craftedArchive();
  const areaId = addArea(c.db, area);
  const rules = createRuleStore(c.db);
  const saved = rules.add(
    { ...rule, areaId: rule.areaId === undefined ? areaId : rule.areaId },
    T0 - 100 * DAY,
  );
  return { db: c.db, areaId, rules, rule: saved };
}

/** A mile is ~0.0145° of latitude. */
const north = (miles: number) => ({ lat: CENTER.lat + miles / 69, lon: CENTER.lon });

describe('any new incident', () => {
  it('fires once for the new incidents its filter keeps, types, hours, weekdays and text alike', () => {
    const { db, areaId } = setup({
      name: 'Night burglaries on Madison',
      areaId: undefined as unknown as null,
      filter: { types: ['Burglary'], hours: [22, 6], text: 'madison' },
      condition: { kind: 'any' },
    });
    const night = T0 - 10 * HOUR; // 02:00 UTC
    const keep = { cdid: cdid(), at: night };
    const raised = commit(db, areaId, T0, [
      keep,
      { cdid: cdid(), at: night, type: 'Theft' },
      { cdid: cdid(), at: T0 }, // noon
      { cdid: cdid(), at: night, address: '5 N STATE ST' },
      { cdid: cdid(), at: night, ...north(5) }, // outside the area
      { cdid: cdid(), at: night, source: 'import' },
    ]);
    expect(raised.map((a) => a.incidents)).toEqual([[keep.cdid]]);
    // Seen again by a later commit (a re-sync): nothing new.
    db.transaction(() =>
      db.prepare('UPDATE incidents SET last_seen = ? WHERE cdid = ?').run(T0 + HOUR, keep.cdid),
    )();
    const again = commit(db, areaId, T0 + HOUR, []);
    expect(again).toEqual([]);
    expect(listAlerts(db)).toHaveLength(1);
    expect(unreadCount(db)).toBe(1);
  });

  it('stays quiet for a first backfill, a paused rule and incidents first seen before the rule was saved', () => {
    const { db, areaId, rules, rule } = setup(
      { name: 'All', areaId: undefined as unknown as null, condition: { kind: 'any' } },
      { backfilled: false },
    );
    expect(commit(db, areaId, T0, [{ cdid: cdid(), at: T0 - HOUR }])).toEqual([]);
    db.prepare('UPDATE areas SET backfilled_at = ? WHERE id = ?').run(T0, areaId);
    rules.setPaused(rule.id, true, T0);
    expect(commit(db, areaId, T0 + HOUR, [{ cdid: cdid(), at: T0 }])).toEqual([]);
    rules.setPaused(rule.id, false, T0 + 3 * HOUR);
    // A commit stamped before the rule was (re)saved: an old incident.
    expect(commit(db, areaId, T0 + 2 * HOUR, [{ cdid: cdid(), at: T0 }])).toEqual([]);
    expect(commit(db, areaId, T0 + 4 * HOUR, [{ cdid: cdid(), at: T0 }])).toHaveLength(1);
  });

  it('notes an amended, removed and restored incident on its alert, whoever writes it', () => {
    const { db, areaId } = setup({
      name: 'All',
      areaId: undefined as unknown as null,
      condition: { kind: 'any' },
    });
    const x = { cdid: cdid(), at: T0 - HOUR };
    commit(db, areaId, T0, [x]);
    db.prepare("UPDATE incidents SET type = 'Robbery', last_seen = ? WHERE cdid = ?").run(T0 + 1, x.cdid);
    db.prepare("UPDATE incidents SET removed_at = ?, removed_reason = 'gone' WHERE cdid = ?").run(
      T0 + 2,
      x.cdid,
    );
    db.prepare('UPDATE incidents SET removed_at = NULL, last_seen = ? WHERE cdid = ?').run(T0 + 3, x.cdid);
    db.prepare('UPDATE incidents SET last_seen = ? WHERE cdid = ?').run(T0 + 4, x.cdid); // seen again: no note
    expect(listAlerts(db)[0]?.notes).toEqual([
      { cdid: x.cdid, kind: 'amended', at: T0 + 1 },
      { cdid: x.cdid, kind: 'removed', at: T0 + 2 },
      { cdid: x.cdid, kind: 'restored', at: T0 + 3 },
    ]);
  });

  it('files an all-areas rule under the area that holds the incident', () => {
    c = craftedArchive();
    const a = addArea(c.db, { name: 'A' });
    const b = addArea(c.db, { name: 'B', at: north(10) });
    createRuleStore(c.db).add({ name: 'Everywhere', areaId: null, condition: { kind: 'any' } }, 0);
    const inB = { cdid: cdid(), at: T0 - HOUR, ...north(10) };
    const raised = commit(c.db, a, T0, [{ cdid: cdid(), at: T0 - HOUR }, inB]);
    expect(raised.map((r) => [r.areaId, r.incidents.length]).sort()).toEqual([
      [a, 1],
      [b, 1],
    ]);
  });
});

describe('count threshold in a rolling window', () => {
  it('fires for the incident that brings the count to 3 in 7 days, again only after it dropped below', () => {
    const rule = {
      name: '3 in 7',
      areaId: undefined as unknown as null,
      condition: { kind: 'threshold' as const, count: 3, days: 7 },
    };
    const { db, areaId } = setup(rule);
    const fired: number[] = [];
    const day = (d: number) => T0 + d * DAY;
    // Days 0, 1, 2 → fires at 2; day 3 (count 4) no; day 9.5: window (2.5, 9.5] holds 3 and 9.5 → 2, below;
    // day 10: (3, 10] holds 9.5 and 10 → 2; day 10.2 → 3 again: fires.
    for (const d of [0, 1, 2, 3, 9.5, 10, 10.2]) {
      const x = { cdid: cdid(), at: day(d) };
      const raised = commit(db, areaId, day(d) + HOUR, [x]);
      if (raised.length > 0) fired.push(d);
    }
    expect(fired).toEqual([2, 10.2]);
    // Test against the archive: the same two.
    expect(testRule(db, { ...rule, areaId, filter: {}, paused: false }, 30, day(11)).fired).toBe(2);
  });
});

describe('near-repeat', () => {
  it('fires for a new incident within the distance of a previous one of the same type within N days', () => {
    const { db, areaId } = setup({
      name: 'Near repeat',
      areaId: undefined as unknown as null,
      condition: { kind: 'nearRepeat', miles: 0.25, days: 14 },
    });
    commit(db, areaId, T0, [{ cdid: cdid(), at: T0 - 20 * DAY, type: 'Burglary' }]);
    const first = { cdid: cdid(), at: T0 - 5 * DAY, type: 'Burglary' };
    commit(db, areaId, T0, [first, { cdid: cdid(), at: T0 - 4 * DAY, type: 'Theft', ...north(0.1) }]);
    const near = { cdid: cdid(), at: T0 - HOUR, type: 'Burglary', ...north(0.2) };
    const far = { cdid: cdid(), at: T0 - HOUR, type: 'Burglary', ...north(0.5) };
    const raised = commit(db, areaId, T0 + HOUR, [near, far]);
    expect(raised.map((r) => r.incidents)).toEqual([[near.cdid]]);
    expect(listAlerts(db)[0]?.detail).toMatchObject({ near: { [near.cdid]: [first.cdid] } });
  });
});

describe('spike against the area’s own baseline', () => {
  it('fires once per rule, area and week when the last 7 days stand out from the 8 weeks before', () => {
    const rule = {
      name: 'Spike',
      areaId: undefined as unknown as null,
      condition: { kind: 'spike' as const },
    };
    const { db, areaId } = setup(rule);
    // Baseline: 1 a week for the 8 weeks before (old, already in the archive).
    db.transaction(() => {
      for (let w = 1; w <= 8; w++)
        insertIncident(db, { cdid: cdid(), at: T0 - w * 7 * DAY - DAY }, T0 - 200 * DAY);
    })();
    // This week (Monday T0 on): x incidents. It fires at the first x whose exact tail P(Bin(x + 8, 1/9) ≥ x),
    // summed here term by term, is at most 0.01 — and not again that week.
    const choose = (n: number, k: number): number => (k === 0 ? 1 : (choose(n - 1, k - 1) * n) / k);
    const tail = (x: number, n: number) => {
      let s = 0;
      for (let k = x; k <= n; k++) s += choose(n, k) * (1 / 9) ** k * (8 / 9) ** (n - k);
      return s;
    };
    let expected = 1;
    while (tail(expected, expected + 8) > 0.01) expected++;
    expect(expected).toBeLessThan(8);
    const fired: number[] = [];
    for (let k = 1; k <= 8; k++) {
      const raised = commit(db, areaId, T0 + k * HOUR + HOUR, [{ cdid: cdid(), at: T0 + k * HOUR }]);
      if (raised.length > 0) fired.push(k);
    }
    expect(fired).toEqual([expected]);
    const [alert] = listAlerts(db);
    expect(alert?.detail).toMatchObject({ recent: expected, baseline: 8 });
    expect(alert?.detail.p as number).toBeLessThanOrEqual(0.01);
    expect(testRule(db, { ...rule, areaId, filter: {}, paused: false }, 10, T0 + DAY).fired).toBe(1);
  });
});

describe('rules as data', () => {
  it('refuses a rule that does not parse or names no area, in words', () => {
    c = craftedArchive();
    const rules = createRuleStore(c.db);
    expect(() => rules.add({ name: 'x', areaId: 99, condition: { kind: 'any' } }, 0)).toThrow(/no area 99/);
    expect(() =>
      rules.add({ name: 'x', areaId: null, condition: { kind: 'threshold', count: 1, days: 7 } }, 0),
    ).toThrow(/condition.count/);
    expect(() =>
      rules.add({ name: 'x', areaId: null, condition: { kind: 'any' }, filter: { hours: [25, 2] } }, 0),
    ).toThrow(/filter.hours/);
  });
});

/**
 * "Test a rule against the archive": how often it would have fired in the last N days, had each
 * incident arrived in the order it occurred. `testRuleOn` is pure (the same condition functions as
 * the live evaluation, over arrays); `testRule` reads the arrays from the archive.
 */
import { SPIKE, type AlertRuleSpec, type RuleTestResult } from '../../../src-shared/alerts';
import type { Db } from '../store/database';
import { areaRegion, incidentsNear, matchingIncidents } from './archive';
import {
  byTime,
  crossesThreshold,
  DAY_MS,
  mondayWeek,
  nearRepeats,
  spikeAt,
  type AlertIncident,
} from './conditions';

/**
 * Pure: `matched` are the incidents the rule's filter and area keep (any order, reaching back far
 * enough before `fromMs` for the condition's window); `pool(x)` the incidents near x for a
 * near-repeat (any type; filtered here). Counts alerts for incidents occurred in [fromMs, toMs].
 */
export function testRuleOn(
  rule: Pick<AlertRuleSpec, 'condition'>,
  matched: readonly AlertIncident[],
  fromMs: number,
  toMs: number,
  pool: (x: AlertIncident) => readonly AlertIncident[] = () => matched,
): Omit<RuleTestResult, 'days'> {
  const sorted = [...matched].sort(byTime);
  const c = rule.condition;
  const cdids: number[] = [];
  let fired = 0;
  let counted = 0;
  const weeks = new Set<number>();
  sorted.forEach((x, i) => {
    if (x.utcMs < fromMs || x.utcMs > toMs) return;
    counted++;
    switch (c.kind) {
      case 'any':
        fired++;
        cdids.push(x.cdid);
        break;
      case 'threshold':
        if (crossesThreshold(sorted, i, c.count, c.days)) {
          fired++;
          cdids.push(x.cdid);
        }
        break;
      case 'spike': {
        const week = mondayWeek(x.localDay);
        if (!weeks.has(week) && spikeAt(sorted, i).significant) {
          weeks.add(week);
          fired++;
          cdids.push(x.cdid);
        }
        break;
      }
      case 'nearRepeat':
        if (nearRepeats(x, pool(x), c.miles, c.days).length > 0) {
          fired++;
          cdids.push(x.cdid);
        }
        break;
    }
  });
  return { fired, cdids, matched: counted };
}

/** The rule over the archive's last `days` days up to `now`. All areas: each area counted on its own. */
export function testRule(db: Db, rule: AlertRuleSpec, days: number, now: number): RuleTestResult {
  const fromMs = now - days * DAY_MS;
  const c = rule.condition;
  const back =
    c.kind === 'threshold'
      ? c.days
      : c.kind === 'spike'
        ? SPIKE.recentDays + SPIKE.baselineDays
        : c.kind === 'nearRepeat'
          ? c.days
          : 0;
  const areaIds =
    rule.areaId !== null
      ? [rule.areaId]
      : db
          .prepare<[], { id: number }>('SELECT id FROM areas ORDER BY id')
          .all()
          .map((a) => a.id);
  const total: RuleTestResult = { days, fired: 0, cdids: [], matched: 0 };
  for (const id of areaIds) {
    const region = areaRegion(db, id);
    if (!region) continue;
    const matched = matchingIncidents(db, region, rule.filter, fromMs - back * DAY_MS, now);
    const pool =
      c.kind === 'nearRepeat'
        ? (x: AlertIncident) =>
            incidentsNear(db, x.lat, x.lon, c.miles, x.utcMs - c.days * DAY_MS - 1, x.utcMs)
        : undefined;
    const r = testRuleOn(rule, matched, fromMs, now, pool);
    total.fired += r.fired;
    total.matched += r.matched;
    total.cdids.push(...r.cdids);
  }
  return total;
}

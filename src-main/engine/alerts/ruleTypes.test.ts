/**
 * A rule's crime types: matched case-insensitively, as the filters match them, and chosen from the
 * standard types plus the archive's own. "burglary" is saved as "Burglary" and fires; a type
 * nobody knows ("burglery") is refused naming the known ones; a rule saved before the check with a
 * lower-case type still fires and still counts in the archive test.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createRuleStore, RuleProblem } from './rules';
import { testRule } from './ruleTest';
import {
  addArea,
  cdid,
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

function setup() {
  c = craftedArchive();
  const areaId = addArea(c.db);
  // The archive's own type (an imported city's): known because the archive holds it.
  insertIncident(c.db, { cdid: cdid(), at: T0 - 3 * DAY, type: 'Narcotics' }, T0 - 3 * DAY);
  return { db: c.db, areaId, rules: createRuleStore(c.db) };
}

describe('the types of an alert rule', () => {
  it('saves a type typed in any case in its known spelling, the archive’s own types included', () => {
    const { areaId, rules } = setup();
    const saved = rules.add(
      {
        name: 'Burglaries',
        areaId,
        filter: { types: ['burglary', 'NARCOTICS'] },
        condition: { kind: 'any' },
      },
      T0 - DAY,
    );
    expect(saved.filter.types).toEqual(['Burglary', 'Narcotics']);
  });

  it('refuses a type nobody knows, naming the known ones', () => {
    const { areaId, rules } = setup();
    const add = () =>
      rules.add(
        { name: 'Typo', areaId, filter: { types: ['Theft', 'burglery'] }, condition: { kind: 'any' } },
        T0 - DAY,
      );
    expect(add).toThrow(RuleProblem);
    expect(add).toThrow(
      /filter\.types: "burglery" is not a crime type .*Known types: Shooting, .*Burglary.*Narcotics/,
    );
    expect(rules.list()).toEqual([]);
    const update = () =>
      rules.update(1, { name: 'x', areaId, filter: { types: ['Assualt'] }, condition: { kind: 'any' } }, T0);
    expect(update).toThrow(/"Assualt" is not a crime type/);
  });

  it('fires and counts a rule whose saved type differs in case from the incidents’', () => {
    const { db, areaId } = setup();
    // Saved before types were checked: the spec holds the lower-case word as typed.
    db.prepare(
      'INSERT INTO alert_rules (spec, paused, active_from, created_at, updated_at) VALUES (?, 0, ?, ?, ?)',
    ).run(
      JSON.stringify({
        name: 'lower case',
        areaId,
        filter: { types: ['burglary'] },
        condition: { kind: 'any' },
        paused: false,
      }),
      T0 - DAY,
      T0 - DAY,
      T0 - DAY,
    );
    const rule = createRuleStore(db).get(1)!;
    const burglary = { cdid: cdid(), at: T0 - HOUR };
    const raised = commit(db, areaId, T0, [burglary, { cdid: cdid(), at: T0 - HOUR, type: 'Theft' }]);
    expect(raised.map((a) => a.incidents)).toEqual([[burglary.cdid]]);
    expect(testRule(db, rule, 7, T0)).toMatchObject({ fired: 1, matched: 1 });
  });
});

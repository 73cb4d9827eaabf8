/**
 * Alert rules in the store: saved as validated JSON (src-shared/alerts.ts), listed, edited,
 * paused, removed. Saving or editing a rule moves its `active_from` to now: it never fires for an
 * incident first seen before it was saved. Removing a rule keeps its alerts (they name it).
 *
 * A rule's types are chosen from the known ones — the standard types plus the archive's own —
 * matched case-insensitively as the filters match them, and saved in the known spelling
 * ("burglary" → "Burglary"); a type nobody knows ("burglery") is refused naming the known ones,
 * since a rule on it could never fire.
 */
import { AlertRuleInput, type AlertRule, type AlertRuleSpec } from '../../../src-shared/alerts';
import { CRIME_TYPES } from '../../../src-shared/crimeTypes';
import type { Db } from '../store/database';

type RuleRow = {
  id: number;
  spec: string;
  paused: number;
  active_from: number;
  created_at: number;
  updated_at: number;
};

export class RuleProblem extends Error {
  constructor(
    message: string,
    /** The fields at fault (paths within the rule), so a form can show each beside its control. */
    readonly issues: { path: string; message: string }[] = [],
  ) {
    super(message);
    this.name = 'RuleProblem';
  }
}

function toRule(r: RuleRow): AlertRule | null {
  const parsed = AlertRuleInput.safeParse(JSON.parse(r.spec));
  if (!parsed.success) return null;
  return {
    ...parsed.data,
    paused: r.paused !== 0,
    id: r.id,
    activeFrom: r.active_from,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** The spec of `input`, or RuleProblem naming what is wrong in plain words. */
export function parseRule(input: unknown): AlertRuleSpec {
  const parsed = AlertRuleInput.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.') || 'rule', message: i.message }));
  throw new RuleProblem(issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues);
}

/** The types a rule may name: the standard ones, then the archive's own (removed incidents' too). */
export function knownTypes(db: Db): string[] {
  const known = new Map<string, string>(CRIME_TYPES.map((t) => [t.toLowerCase(), t]));
  for (const { type } of db
    .prepare<[], { type: string }>('SELECT DISTINCT type FROM incidents ORDER BY type')
    .all())
    if (!known.has(type.toLowerCase())) known.set(type.toLowerCase(), type);
  return [...known.values()];
}

/**
 * `spec` with its types in their known spelling, or RuleProblem naming the unknown ones and the
 * known. The archive is read only when a type is not a standard one.
 */
export function withKnownTypes(db: Db, spec: AlertRuleSpec): AlertRuleSpec {
  const types = spec.filter.types;
  if (!types || types.length === 0) return spec;
  const standard = new Map<string, string>(CRIME_TYPES.map((t) => [t.toLowerCase(), t]));
  let known: Map<string, string> | null = null;
  const unknown: string[] = [];
  const chosen: string[] = [];
  for (const type of types) {
    const key = type.trim().toLowerCase();
    let name = standard.get(key);
    if (name === undefined) {
      known ??= new Map(knownTypes(db).map((t) => [t.toLowerCase(), t]));
      name = known.get(key);
    }
    if (name === undefined) unknown.push(type);
    else if (!chosen.includes(name)) chosen.push(name);
  }
  if (unknown.length > 0) {
    const all = known ? [...known.values()] : knownTypes(db);
    const message = `${unknown.map((t) => `"${t}"`).join(', ')} ${
      unknown.length === 1 ? 'is not a crime type' : 'are not crime types'
    } Blotter knows, so the rule could never fire. Known types: ${all.join(', ')}.`;
    throw new RuleProblem(`filter.types: ${message}`, [{ path: 'filter.types', message }]);
  }
  return { ...spec, filter: { ...spec.filter, types: chosen } };
}

export function createRuleStore(db: Db) {
  const areaExists = (id: number) =>
    db.prepare<[number], { id: number }>('SELECT id FROM areas WHERE id = ?').get(id) !== undefined;
  const checkArea = (spec: AlertRuleSpec) => {
    if (spec.areaId !== null && !areaExists(spec.areaId))
      throw new RuleProblem(`areaId: there is no area ${spec.areaId}.`, [
        { path: 'areaId', message: `There is no area ${spec.areaId}.` },
      ]);
  };
  const store = {
    list(): AlertRule[] {
      return db
        .prepare<[], RuleRow>('SELECT * FROM alert_rules ORDER BY id')
        .all()
        .map(toRule)
        .filter((r): r is AlertRule => r !== null);
    },
    get(id: number): AlertRule | undefined {
      const row = db.prepare<[number], RuleRow>('SELECT * FROM alert_rules WHERE id = ?').get(id);
      return row ? (toRule(row) ?? undefined) : undefined;
    },
    /** Active (unpaused) rules, for the evaluation. */
    active(): AlertRule[] {
      return db
        .prepare<[], RuleRow>('SELECT * FROM alert_rules WHERE paused = 0 ORDER BY id')
        .all()
        .map(toRule)
        .filter((r): r is AlertRule => r !== null);
    },
    add(input: unknown, now: number): AlertRule {
      const spec = withKnownTypes(db, parseRule(input));
      checkArea(spec);
      const id = Number(
        db
          .prepare(
            'INSERT INTO alert_rules (spec, paused, active_from, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
          )
          .run(JSON.stringify(spec), spec.paused ? 1 : 0, now, now, now).lastInsertRowid,
      );
      return store.get(id) as AlertRule;
    },
    update(id: number, input: unknown, now: number): AlertRule {
      const spec = withKnownTypes(db, parseRule(input));
      checkArea(spec);
      const changed = db
        .prepare('UPDATE alert_rules SET spec = ?, paused = ?, active_from = ?, updated_at = ? WHERE id = ?')
        .run(JSON.stringify(spec), spec.paused ? 1 : 0, now, now, id).changes;
      if (changed === 0) throw new RuleProblem(`There is no alert rule ${id}.`);
      return store.get(id) as AlertRule;
    },
    setPaused(id: number, paused: boolean, now: number): AlertRule {
      const rule = store.get(id);
      if (!rule) throw new RuleProblem(`There is no alert rule ${id}.`);
      const { name, areaId, filter, condition } = rule;
      db.prepare(
        'UPDATE alert_rules SET spec = ?, paused = ?, updated_at = ?, active_from = ? WHERE id = ?',
      ).run(
        JSON.stringify({ name, areaId, filter, condition, paused }),
        paused ? 1 : 0,
        now,
        // Resuming is like saving anew: what arrived while paused does not fire.
        paused ? rule.activeFrom : now,
        id,
      );
      return store.get(id) as AlertRule;
    },
    remove(id: number): boolean {
      return db.prepare('DELETE FROM alert_rules WHERE id = ?').run(id).changes > 0;
    },
  };
  return store;
}

export type RuleStore = ReturnType<typeof createRuleStore>;

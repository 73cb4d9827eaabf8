/**
 * `alerts list | add --rule FILE.json | test --rule FILE|ID [--days 90] | remove ID`: alert rules
 * through the same calls as the app's Alerts view (listAlertRules, addAlertRule, testAlertRule,
 * removeAlertRule, listAlerts). A rule file is one JSON object of src-shared/alerts.ts's
 * `AlertRuleInput` (the schema is in the CLI README); the engine validates it and a refusal names
 * the field (exit 2). Alerts are evaluated only while Blotter or a command-line sync runs.
 */
import { readFileSync } from 'node:fs';
import type { AlertRule } from '../../src-shared/alerts';
import { one, parseId, parsePositiveInt, UsageError, type Parsed } from './args';
import { CallFailure } from './failure';
import { EXIT, type Io } from './io';
import { withSession } from './session';

export const ALERTS_FLAGS = {
  values: ['data-dir', 'rule', 'days'],
  booleans: ['help'],
  words: 2,
};

const USAGE_WORDS =
  'Say what to do: alerts list, alerts add --rule FILE.json, alerts test --rule FILE|ID [--days 90], alerts remove ID.';

export async function alertsCommand(p: Parsed, io: Io): Promise<number> {
  const [action, id] = p.words;
  if (action === 'remove') return remove(p, io, parseId('rule id', id));
  if (id !== undefined) throw new UsageError(`Unexpected argument "${id}".`);
  if (action === 'list') return list(p, io);
  if (action === 'add') return add(p, io);
  if (action === 'test') return test(p, io);
  throw new UsageError(USAGE_WORDS);
}

/** One line per rule: id, name, area, condition, paused. */
export function describeRule(r: AlertRule): string {
  const c = r.condition;
  const condition =
    c.kind === 'any'
      ? 'any new incident'
      : c.kind === 'threshold'
        ? `${c.count} or more within ${c.days} days`
        : c.kind === 'spike'
          ? 'a spike against the 8 weeks before'
          : `a repeat within ${c.miles} mi and ${c.days} days`;
  const f = r.filter;
  const filter = [f.types?.length ? f.types.join(', ') : null, f.text ? `text "${f.text}"` : null].filter(
    Boolean,
  );
  return `${r.id}\t${r.name}\t${r.areaId === null ? 'all areas' : `area ${r.areaId}`}\t${condition}${
    filter.length ? ` (${filter.join('; ')})` : ''
  }${r.paused ? '\tpaused' : ''}`;
}

function readRule(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch (error) {
    throw new UsageError(`--rule ${file}: ${(error as Error).message}`);
  }
}

async function list(p: Parsed, io: Io): Promise<number> {
  return withSession(io, one(p, 'data-dir'), async (s) => {
    const { rules } = await s.call('listAlertRules', {});
    const inbox = await s.call('listAlerts', { limit: 1 });
    if (rules.length === 0) io.out('No alert rules yet (blotter alerts add --rule FILE.json).\n');
    for (const r of rules) io.out(`${describeRule(r)}\n`);
    io.out(`${inbox.unread} unread alert${inbox.unread === 1 ? '' : 's'}.\n`);
    io.out(`${JSON.stringify({ rules: rules.length, unread: inbox.unread })}\n`);
    return EXIT.ok;
  });
}

async function add(p: Parsed, io: Io): Promise<number> {
  const rule = readRule(one(p, 'rule', true));
  return withSession(io, one(p, 'data-dir'), async (s) => {
    const saved = await s.call('addAlertRule', { rule: rule as never });
    io.out(`Alert rule ${saved.id} saved: ${describeRule(saved)}\n`);
    io.out('It fires for incidents new from now on, while Blotter or a command-line sync runs.\n');
    io.out(`${JSON.stringify({ id: saved.id })}\n`);
    return EXIT.ok;
  });
}

async function test(p: Parsed, io: Io): Promise<number> {
  const ref = one(p, 'rule', true);
  const days = p.values.has('days') ? parsePositiveInt('days', one(p, 'days', true), 3650) : 90;
  const input = /^\d+$/.test(ref)
    ? { ruleId: parseId('rule id', ref), days }
    : { rule: readRule(ref) as never, days };
  return withSession(io, one(p, 'data-dir'), async (s) => {
    const r = await s.call('testAlertRule', input);
    io.out(
      `This rule would have fired ${r.fired} time${r.fired === 1 ? '' : 's'} in the last ${r.days} days ` +
        `(${r.matched} incident${r.matched === 1 ? '' : 's'} matched its filter and area).\n`,
    );
    io.out(`${JSON.stringify({ days: r.days, fired: r.fired, matched: r.matched })}\n`);
    return EXIT.ok;
  });
}

async function remove(p: Parsed, io: Io, id: number): Promise<number> {
  return withSession(io, one(p, 'data-dir'), async (s) => {
    const r = await s.call('removeAlertRule', { id });
    if (!r.removed)
      throw new CallFailure('not_found', `There is no alert rule ${id} (blotter alerts list shows them).`);
    io.out(`Alert rule ${id} removed; its alerts stay in the inbox.\n`);
    return EXIT.ok;
  });
}

/** For sync's summary: the alerts its runs raised, per rule, with their incidents. */
export async function alertsOfRuns(
  s: {
    call(
      name: 'listAlerts',
      input: { runIds: number[] },
    ): Promise<{ alerts: { ruleId: number | null; cdids: number[] }[] }>;
  },
  runIds: number[],
): Promise<{ ruleId: number | null; incidents: number }[]> {
  if (runIds.length === 0) return [];
  const { alerts } = await s.call('listAlerts', { runIds });
  const byRule = new Map<number | null, number>();
  for (const a of alerts) byRule.set(a.ruleId, (byRule.get(a.ruleId) ?? 0) + a.cdids.length);
  return [...byRule].map(([ruleId, incidents]) => ({ ruleId, incidents }));
}

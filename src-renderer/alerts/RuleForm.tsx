/**
 * The rule editor: name, area, condition, types and text (the one filter state's meaning). The
 * rule is tested against the archive before it can be saved — "would have fired N times in the
 * last 90 days" — and any change asks for a new test. Types are chosen, not typed: the standard
 * ones plus the archive's own (the engine refuses any other). A refusal stands beside the field it
 * names, or beside the buttons; a disabled button says why beside it.
 */
import { useId, useMemo, useState } from 'react';
import type { AlertRule, AlertRuleInput, RuleTestResult } from '../../src-shared/alerts';
import { CRIME_TYPES } from '../../src-shared/crimeTypes';
import type { AreaView } from '../../src-shared/sync';
import { BridgeCallError, type Client } from '../bridge/client';
import { useCall } from '../bridge/useCall';
import { DisabledReason, InlineError, invalidProps } from '../shell/InlineMessage';
import styles from './alerts.module.css';
import { RuleTestButton, useRuleTest } from './RuleTestButton';

type Kind = 'any' | 'threshold' | 'spike' | 'nearRepeat';

type Draft = {
  name: string;
  areaId: number | null;
  kind: Kind;
  count: string;
  days: string;
  miles: string;
  types: string[];
  text: string;
};

const TEST_DAYS = 90;

function draftOf(rule: AlertRule | null): Draft {
  const c = rule?.condition;
  return {
    name: rule?.name ?? '',
    areaId: rule?.areaId ?? null,
    kind: c?.kind ?? 'any',
    count: c?.kind === 'threshold' ? String(c.count) : '3',
    days: c?.kind === 'threshold' || c?.kind === 'nearRepeat' ? String(c.days) : '7',
    miles: c?.kind === 'nearRepeat' ? String(c.miles) : '0.25',
    types: rule?.filter.types ?? [],
    text: rule?.filter.text ?? '',
  };
}

/** The types to choose from: the standard ones, then the archive's own, then any the rule holds. */
export function typeChoices(archive: readonly string[], chosen: readonly string[]): string[] {
  const seen = new Map<string, string>(CRIME_TYPES.map((t) => [t.toLowerCase(), t]));
  for (const t of [...archive, ...chosen]) if (!seen.has(t.toLowerCase())) seen.set(t.toLowerCase(), t);
  return [...seen.values()];
}

export function ruleOf(d: Draft): AlertRuleInput {
  const types = d.types;
  const condition =
    d.kind === 'threshold'
      ? { kind: d.kind, count: Number(d.count), days: Number(d.days) }
      : d.kind === 'nearRepeat'
        ? { kind: d.kind, miles: Number(d.miles), days: Number(d.days) }
        : { kind: d.kind };
  return {
    name: d.name,
    areaId: d.areaId,
    filter: { ...(types.length ? { types } : {}), ...(d.text.trim() ? { text: d.text.trim() } : {}) },
    condition,
  };
}

export function RuleForm({
  client,
  areas,
  rule,
  onSaved,
  onCancel,
}: {
  client: Client;
  areas: AreaView[];
  /** The rule being edited; null for a new one. */
  rule: AlertRule | null;
  onSaved: (rule: AlertRule) => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(rule));
  const [tested, setTested] = useState<RuleTestResult | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const ruleTest = useRuleTest(client);
  const id = useId();
  const summary = useCall(() => client.call('getArchiveSummary', {}), [client]);
  const choices = useMemo(
    () => typeChoices(summary.data?.types.map((t) => t.type) ?? [], draft.types),
    [summary.data, draft.types],
  );
  /** The engine's word on one field of the rule (the call's input holds it under `rule`). */
  const issue = (path: string): string | undefined =>
    error instanceof BridgeCallError ? error.issueFor(`rule.${path}`) : undefined;
  const fieldPaths = [
    'name',
    'areaId',
    'condition.count',
    'condition.miles',
    'condition.days',
    'filter.types',
    'filter.text',
  ];
  const general =
    error === null
      ? null
      : error instanceof BridgeCallError && fieldPaths.some((p) => issue(p))
        ? null
        : error instanceof Error
          ? error.message
          : String(error);
  const fieldError = (key: string, path: string) => (
    <InlineError id={`${id}-${key}-error`} message={issue(path)} />
  );
  const invalid = (key: string, path: string) => invalidProps(`${id}-${key}-error`, issue(path));
  // Why each button is off, said beside them (one line: an unnamed rule blocks both).
  const testBlocked = busy
    ? null
    : !draft.name.trim()
      ? 'Name the rule to test it; Save needs the test.'
      : null;
  const saveBlocked = busy
    ? null
    : (testBlocked ??
      (!tested ? `Test the rule against the last ${TEST_DAYS} days first: Save needs the test.` : null));
  const set = (patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setTested(null);
    setError(null);
  };
  const run = async (f: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await f();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const test = () => run(async () => setTested(await ruleTest.test(ruleOf(draft), TEST_DAYS)));
  const save = () =>
    run(async () => {
      const input = ruleOf(draft);
      const saved = rule
        ? await client.call('updateAlertRule', { id: rule.id, rule: { ...input, paused: rule.paused } })
        : await client.call('addAlertRule', { rule: input });
      onSaved(saved);
    });

  return (
    <form
      className={`${styles.ruleForm} app-form`}
      aria-label={rule ? `Edit rule ${rule.name}` : 'New alert rule'}
      onSubmit={(e) => {
        e.preventDefault();
        void (tested ? save() : test());
      }}
    >
      <label htmlFor={`${id}-name`}>Name</label>
      <input
        id={`${id}-name`}
        value={draft.name}
        onChange={(e) => set({ name: e.target.value })}
        aria-required="true"
        {...invalid('name', 'name')}
      />
      {fieldError('name', 'name')}

      <label htmlFor={`${id}-area`}>Area</label>
      <select
        id={`${id}-area`}
        value={draft.areaId ?? ''}
        onChange={(e) => set({ areaId: e.target.value ? Number(e.target.value) : null })}
        {...invalid('area', 'areaId')}
      >
        <option value="">All areas</option>
        {areas.map((a) => (
          <option key={a.id} value={a.id}>
            {a.name}
          </option>
        ))}
      </select>
      {fieldError('area', 'areaId')}

      <label htmlFor={`${id}-kind`}>Alert when</label>
      <select id={`${id}-kind`} value={draft.kind} onChange={(e) => set({ kind: e.target.value as Kind })}>
        <option value="any">any new incident</option>
        <option value="threshold">a count in a rolling window</option>
        <option value="spike">a spike against the 8 weeks before</option>
        <option value="nearRepeat">a repeat near a recent incident</option>
      </select>

      {draft.kind === 'threshold' ? (
        <>
          <label htmlFor={`${id}-count`}>At least (incidents)</label>
          <input
            id={`${id}-count`}
            type="number"
            min={2}
            value={draft.count}
            onChange={(e) => set({ count: e.target.value })}
            {...invalid('count', 'condition.count')}
          />
          {fieldError('count', 'condition.count')}
        </>
      ) : null}
      {draft.kind === 'nearRepeat' ? (
        <>
          <label htmlFor={`${id}-miles`}>Within (miles)</label>
          <input
            id={`${id}-miles`}
            type="number"
            step="0.05"
            min={0.01}
            value={draft.miles}
            onChange={(e) => set({ miles: e.target.value })}
            {...invalid('miles', 'condition.miles')}
          />
          {fieldError('miles', 'condition.miles')}
        </>
      ) : null}
      {draft.kind === 'threshold' || draft.kind === 'nearRepeat' ? (
        <>
          <label htmlFor={`${id}-days`}>Within (days)</label>
          <input
            id={`${id}-days`}
            type="number"
            min={1}
            value={draft.days}
            onChange={(e) => set({ days: e.target.value })}
            {...invalid('days', 'condition.days')}
          />
          {fieldError('days', 'condition.days')}
        </>
      ) : null}

      <span id={`${id}-types`}>Types (none chosen: all)</span>
      <div
        role="group"
        aria-labelledby={`${id}-types`}
        className={styles.typeChoices}
        {...invalid('types', 'filter.types')}
      >
        {choices.map((type) => (
          <label key={type} className="check">
            <input
              type="checkbox"
              checked={draft.types.includes(type)}
              onChange={(e) =>
                set({
                  types: e.target.checked ? [...draft.types, type] : draft.types.filter((t) => t !== type),
                })
              }
            />
            {type}
          </label>
        ))}
      </div>
      {fieldError('types', 'filter.types')}
      <label htmlFor={`${id}-text`}>Text</label>
      <input
        id={`${id}-text`}
        value={draft.text}
        onChange={(e) => set({ text: e.target.value })}
        {...invalid('text', 'filter.text')}
      />
      {fieldError('text', 'filter.text')}

      <div className={styles.formActions}>
        <RuleTestButton
          testing={ruleTest.testing}
          disabled={busy || testBlocked !== null}
          describedBy={testBlocked ? `${id}-why` : undefined}
          days={TEST_DAYS}
          onTest={() => void test()}
          onCancel={ruleTest.cancel}
        />
        <button
          type="button"
          className="button primary"
          onClick={() => void save()}
          disabled={busy || saveBlocked !== null}
          aria-describedby={saveBlocked ? `${id}-why` : undefined}
        >
          {rule ? 'Save changes' : 'Save rule'}
        </button>
        <button type="button" className="link-button" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <DisabledReason id={`${id}-why`} reason={saveBlocked} />
      <InlineError id={`${id}-error`} message={general} className="message-error" testId="rule-error" />
      {tested ? (
        <p className={styles.testResult} role="status" data-testid="rule-test-result">
          This rule would have fired <strong>{tested.fired}</strong> {tested.fired === 1 ? 'time' : 'times'}{' '}
          in the last {tested.days} days ({tested.matched} {tested.matched === 1 ? 'incident' : 'incidents'}{' '}
          matched its filter and area). It fires only for incidents new from now on.
        </p>
      ) : null}
    </form>
  );
}

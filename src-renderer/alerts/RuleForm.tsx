/**
 * The rule editor: name, area, condition, types and text (the one filter state's meaning). The
 * rule is tested against the archive before it can be saved — "would have fired N times in the
 * last 90 days" — and any change asks for a new test.
 */
import { useId, useState } from 'react';
import type { AlertRule, AlertRuleInput, RuleTestResult } from '../../src-shared/alerts';
import type { AreaView } from '../../src-shared/sync';
import type { Client } from '../bridge/client';
import styles from './alerts.module.css';

type Kind = 'any' | 'threshold' | 'spike' | 'nearRepeat';

type Draft = {
  name: string;
  areaId: number | null;
  kind: Kind;
  count: string;
  days: string;
  miles: string;
  types: string;
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
    types: rule?.filter.types?.join(', ') ?? '',
    text: rule?.filter.text ?? '',
  };
}

export function ruleOf(d: Draft): AlertRuleInput {
  const types = d.types
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
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
  const [error, setError] = useState<string | null>(null);
  const id = useId();
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
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  const test = () =>
    run(async () => setTested(await client.call('testAlertRule', { rule: ruleOf(draft), days: TEST_DAYS })));
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
      className={styles.ruleForm}
      aria-label={rule ? `Edit rule ${rule.name}` : 'New alert rule'}
      onSubmit={(e) => {
        e.preventDefault();
        void (tested ? save() : test());
      }}
    >
      <label htmlFor={`${id}-name`}>Name</label>
      <input id={`${id}-name`} value={draft.name} onChange={(e) => set({ name: e.target.value })} required />

      <label htmlFor={`${id}-area`}>Area</label>
      <select
        id={`${id}-area`}
        value={draft.areaId ?? ''}
        onChange={(e) => set({ areaId: e.target.value ? Number(e.target.value) : null })}
      >
        <option value="">All areas</option>
        {areas.map((a) => (
          <option key={a.id} value={a.id}>
            {a.name}
          </option>
        ))}
      </select>

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
          />
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
          />
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
          />
        </>
      ) : null}

      <label htmlFor={`${id}-types`}>Types (comma separated; empty: all)</label>
      <input id={`${id}-types`} value={draft.types} onChange={(e) => set({ types: e.target.value })} />
      <label htmlFor={`${id}-text`}>Text</label>
      <input id={`${id}-text`} value={draft.text} onChange={(e) => set({ text: e.target.value })} />

      <div className={styles.formActions}>
        <button
          type="button"
          className="button"
          onClick={() => void test()}
          disabled={busy || !draft.name.trim()}
        >
          Test against the last {TEST_DAYS} days
        </button>
        <button
          type="button"
          className="button primary"
          onClick={() => void save()}
          disabled={busy || !tested}
        >
          {rule ? 'Save changes' : 'Save rule'}
        </button>
        <button type="button" className="link-button" onClick={onCancel}>
          Cancel
        </button>
      </div>
      {tested ? (
        <p className={styles.testResult} role="status" data-testid="rule-test-result">
          This rule would have fired <strong>{tested.fired}</strong> {tested.fired === 1 ? 'time' : 'times'}{' '}
          in the last {tested.days} days ({tested.matched} {tested.matched === 1 ? 'incident' : 'incidents'}{' '}
          matched its filter and area). It fires only for incidents new from now on.
        </p>
      ) : (
        <p className="muted">Test the rule to see how often it would have fired before saving it.</p>
      )}
      {error ? (
        <p className="message-error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}

/** Where the API lives and which plan the key has: base URL, plan, and Enterprise's own limits. */
import { useId, useState, type FormEvent } from 'react';
import { PLANS, PlanId } from '../../../src-shared/plans';
import type { SettingsView } from '../../../src-shared/settings';
import { BridgeCallError, type Client } from '../../bridge/client';
import { count } from '../../text/count';
import { errorText } from '../../text/errorText';
import {
  checkForm,
  fieldErrorsOf,
  formOf,
  patchOf,
  previewLimits,
  type ConnectionField,
  type ConnectionForm,
  type FieldErrors,
} from './connectionForm';
import { Field } from './Field';

export type ConnectionSectionProps = {
  client: Client;
  settings: SettingsView;
  onSaved: (settings: SettingsView) => void;
};

export function ConnectionSection({ client, settings, onSaved }: ConnectionSectionProps) {
  const headingId = useId();
  const [form, setForm] = useState<ConnectionForm>(() => formOf(settings));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const limits = previewLimits(form);

  const edit = <F extends ConnectionField>(field: F, value: ConnectionForm[F]) => {
    setForm((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
    setNotice(null);
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    setNotice(null);
    const local = checkForm(form);
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    setBusy(true);
    try {
      const saved = await client.call('updateSettings', patchOf(form));
      onSaved(saved);
      setForm(formOf(saved));
      setNotice('Settings saved.');
    } catch (failure) {
      if (failure instanceof BridgeCallError && failure.code === 'bad_input') {
        const { fields, other } = fieldErrorsOf(failure.issues);
        setErrors(fields);
        if (other.length > 0) setProblem(other.join(' '));
        else if (Object.keys(fields).length === 0) setProblem(errorText(failure));
      } else {
        setProblem(errorText(failure));
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>Connection</h2>
      <p className="muted">Where the Crime Incident Data API lives, and the plan your key belongs to.</p>
      <form onSubmit={(event) => void save(event)} noValidate>
        <Field
          label="Base URL"
          error={errors.baseUrl}
          hint="The address the API operator gave you, such as https://api.example.com"
        >
          {(control) => (
            <input
              {...control}
              type="url"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              placeholder="https://api.example.com"
              value={form.baseUrl}
              onChange={(event) => edit('baseUrl', event.target.value)}
            />
          )}
        </Field>

        <Field label="Plan" error={errors.plan}>
          {(control) => (
            <select
              {...control}
              value={form.plan}
              onChange={(event) => edit('plan', PlanId.parse(event.target.value))}
            >
              {PlanId.options.map((id) => (
                <option key={id} value={id}>
                  {PLANS[id].label}
                </option>
              ))}
            </select>
          )}
        </Field>

        {form.plan === 'enterprise' ? (
          <div className="field-pair">
            <Field
              label="Rate (requests per minute)"
              error={errors.ratePerMinute}
              hint={`Empty means ${count(PLANS.enterprise.ratePerMinute)}.`}
            >
              {(control) => (
                <input
                  {...control}
                  inputMode="numeric"
                  autoComplete="off"
                  value={form.ratePerMinute}
                  onChange={(event) => edit('ratePerMinute', event.target.value)}
                />
              )}
            </Field>
            <Field
              label="Data window (days)"
              error={errors.windowDays}
              hint={`Empty means ${count(PLANS.enterprise.windowDays)}.`}
            >
              {(control) => (
                <input
                  {...control}
                  inputMode="numeric"
                  autoComplete="off"
                  value={form.windowDays}
                  onChange={(event) => edit('windowDays', event.target.value)}
                />
              )}
            </Field>
          </div>
        ) : null}

        <p className="plan-limits" data-testid="plan-limits">
          Blotter will make at most <strong>{count(limits.ratePerMinute)} requests per minute</strong> and can
          fetch the last <strong>{count(limits.windowDays)} days</strong> of incidents.
        </p>

        <div className="actions">
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save settings'}
          </button>
        </div>
      </form>
      {problem ? (
        <p className="message message-error" role="alert">
          {problem}
        </p>
      ) : null}
      <p className="message message-ok" role="status">
        {notice}
      </p>
    </section>
  );
}

/**
 * The connection's fields — base URL, plan, Enterprise's own rate and window — and the limits in
 * force, shared by Settings › Connection and the welcome screen's key form.
 */
import { PLANS, PlanId } from '../../../src-shared/plans';
import { count } from '../../text/count';
import { previewLimits, type ConnectionField, type ConnectionForm, type FieldErrors } from './connectionForm';
import { Field } from './Field';

export type ConnectionFieldsProps = {
  form: ConnectionForm;
  errors: FieldErrors;
  edit: <F extends ConnectionField>(field: F, value: ConnectionForm[F]) => void;
  baseUrlHint: string;
};

export function ConnectionFields({ form, errors, edit, baseUrlHint }: ConnectionFieldsProps) {
  const limits = previewLimits(form);
  return (
    <>
      <Field label="Base URL" error={errors.baseUrl} hint={baseUrlHint}>
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
                placeholder={String(PLANS.enterprise.ratePerMinute)}
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
                placeholder={String(PLANS.enterprise.windowDays)}
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
    </>
  );
}

/**
 * The Connection form's values as the user types them, and the patch they become. Numbers stay
 * strings while typed so that a half-typed value is not lost; they are checked in plain words here,
 * and the engine checks everything again (its field issues are shown next to the same fields).
 */
import type { CallInput } from '../../../src-shared/contract';
import { planLimits, type PlanId, type PlanLimits } from '../../../src-shared/plans';
import type { SettingsView } from '../../../src-shared/settings';
import { count } from '../../text/count';

export type ConnectionForm = { baseUrl: string; plan: PlanId; ratePerMinute: string; windowDays: string };
export type ConnectionField = keyof ConnectionForm;
export type FieldErrors = Partial<Record<ConnectionField, string>>;

export const CONNECTION_FIELDS: readonly ConnectionField[] = [
  'baseUrl',
  'plan',
  'ratePerMinute',
  'windowDays',
];

const NUMBER_LIMITS = {
  ratePerMinute: { max: 100_000, what: 'The rate' },
  windowDays: { max: 3650, what: 'The data window' },
} as const;

export function formOf(settings: SettingsView): ConnectionForm {
  return {
    baseUrl: settings.baseUrl ?? '',
    plan: settings.plan,
    ratePerMinute: settings.ratePerMinute === null ? '' : String(settings.ratePerMinute),
    windowDays: settings.windowDays === null ? '' : String(settings.windowDays),
  };
}

/** A typed whole number, null for an empty field, undefined for anything else. */
function wholeNumber(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return /^\d+$/.test(trimmed) ? Number(trimmed) : undefined;
}

/** Problems the form can see by itself (only Enterprise's own numbers; the engine checks the URL). */
export function checkForm(form: ConnectionForm): FieldErrors {
  const errors: FieldErrors = {};
  if (form.plan !== 'enterprise') return errors;
  for (const field of ['ratePerMinute', 'windowDays'] as const) {
    const { max, what } = NUMBER_LIMITS[field];
    const value = wholeNumber(form[field]);
    if (value === undefined || (value !== null && (value < 1 || value > max))) {
      errors[field] = `${what} must be a whole number from 1 to ${count(max)}.`;
    }
  }
  return errors;
}

/** The patch to send. Enterprise's own numbers are sent only with the Enterprise plan. */
export function patchOf(form: ConnectionForm): CallInput<'updateSettings'> {
  const baseUrl = form.baseUrl.trim() === '' ? null : form.baseUrl.trim();
  if (form.plan !== 'enterprise') return { baseUrl, plan: form.plan };
  return {
    baseUrl,
    plan: form.plan,
    ratePerMinute: wholeNumber(form.ratePerMinute) ?? null,
    windowDays: wholeNumber(form.windowDays) ?? null,
  };
}

/** The limits the form's values would put in force, for the live preview under the plan. */
export function previewLimits(form: ConnectionForm): PlanLimits {
  return planLimits(form.plan, {
    ratePerMinute: wholeNumber(form.ratePerMinute) ?? null,
    windowDays: wholeNumber(form.windowDays) ?? null,
  });
}

/** The engine's field issues, keyed by form field; anything else is returned as `other`. */
export function fieldErrorsOf(issues: readonly { path: string; message: string }[]): {
  fields: FieldErrors;
  other: string[];
} {
  const fields: FieldErrors = {};
  const other: string[] = [];
  for (const issue of issues) {
    const field = CONNECTION_FIELDS.find((name) => name === issue.path);
    if (field) fields[field] ??= issue.message;
    else other.push(issue.message);
  }
  return { fields, other };
}

/** The Delivery section's shared pieces: an outcome beside its Save button, a labelled field row, the email form's values. */
import type { ReactNode } from 'react';
import type { AlertChannelsView } from '../../src-shared/alertCalls';
import { BridgeCallError } from '../bridge/client';
import { InlineError } from '../shell/InlineMessage';

export type Outcome = { ok: true; text: string } | { ok: false; error: unknown };
export type Where = 'webhook' | 'email' | 'log';

/** What a failure says about one field (`path` as the engine names it). */
export const issueOf = (outcome: Outcome | null, path: string): string | undefined =>
  outcome && !outcome.ok && outcome.error instanceof BridgeCallError
    ? outcome.error.issueFor(path)
    : undefined;

/** What a failure says beyond its fields: the message, unless a field shows every issue. */
function generalText(outcome: Outcome | null, shownPaths: readonly string[]): string | null {
  if (!outcome || outcome.ok) return null;
  const e = outcome.error;
  if (
    e instanceof BridgeCallError &&
    e.issues.length > 0 &&
    e.issues.every((i) => shownPaths.includes(i.path))
  )
    return null;
  return e instanceof Error ? e.message : String(e);
}

export type Email = {
  enabled: boolean;
  host: string;
  port: string;
  tls: 'starttls' | 'tls';
  user: string;
  password: string;
  from: string;
  to: string;
  mode: 'immediate' | 'digest';
  digestHour: string;
};

export function emailOf(view: AlertChannelsView | null): Email {
  const c = (view?.email.config ?? {}) as Record<string, unknown>;
  return {
    enabled: view?.email.enabled ?? false,
    host: String(c.host ?? ''),
    port: String(c.port ?? 587),
    tls: c.tls === 'tls' ? 'tls' : 'starttls',
    user: typeof c.user === 'string' ? c.user : '',
    password: '',
    from: String(c.from ?? ''),
    to: Array.isArray(c.to) ? c.to.join(', ') : '',
    mode: c.mode === 'digest' ? 'digest' : 'immediate',
    digestHour: String(c.digestHour ?? 7),
  };
}

export function errorMessage(outcome: { ok: false; error: unknown }): string {
  return outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
}

/** A form's outcome beside its Save button: done (a status), or what failed beyond its fields. */
export function OutcomeLine({
  id,
  outcome,
  shownPaths,
}: {
  id: string;
  outcome: Outcome | null;
  shownPaths: readonly string[];
}) {
  if (outcome?.ok)
    return (
      <p id={id} className="message message-ok" role="status">
        {outcome.text}
      </p>
    );
  return <InlineError id={id} message={generalText(outcome, shownPaths)} className="message-error" />;
}

export function FieldRow({
  id,
  label,
  error,
  children,
}: {
  id: string;
  label: string;
  error?: string | undefined;
  children: ReactNode;
}) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      {children}
      <InlineError id={`${id}-error`} message={error} />
    </>
  );
}

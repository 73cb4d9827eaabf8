/** A titled card of the History view, with its loading and error states. */
import { useId, type ReactNode } from 'react';
import type { CallState } from '../bridge/useCall';
import styles from './history.module.css';

export function Section<T>({
  title,
  state,
  children,
  tools,
  testId,
}: {
  title: string;
  state: CallState<T>;
  children: (data: T) => ReactNode;
  tools?: ReactNode;
  testId?: string;
}) {
  const id = useId();
  return (
    <section className="card" aria-labelledby={id} aria-busy={state.loading} data-testid={testId}>
      <div className={styles.sectionHead}>
        <h2 id={id}>{title}</h2>
        {tools}
      </div>
      {state.error ? <p className="message message-error">{state.error}</p> : null}
      {state.data ? children(state.data) : !state.error ? <p className="muted">Loading…</p> : null}
    </section>
  );
}

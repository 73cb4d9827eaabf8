/**
 * The opt-in 36-month history backfill (v1's /v1/history): its request count first (planHistory),
 * or why it cannot run, then a confirmation that starts it (startSync with history).
 */
import { useId } from 'react';
import type { AreaView, HistoryPlan } from '../../src-shared/sync';
import { count } from '../text/count';
import styles from './surface.module.css';
import { usePlannedStart } from './usePlannedStart';

export function HistoryConfirm({ area, onDone }: { area: AreaView; onDone: () => void }) {
  const headingId = useId();
  const { plan, problem, starting, start } = usePlannedStart<HistoryPlan>(
    area.id,
    {
      plan: (client) => client.call('planHistory', { areaIds: [area.id] }),
      start: (client) => client.call('startSync', { areaIds: [area.id], history: true }),
    },
    onDone,
  );

  return (
    <div
      className={styles.historyConfirm}
      role="group"
      aria-labelledby={headingId}
      data-testid="history-plan"
    >
      <h3 id={headingId}>Backfill {area.name}’s last 36 months?</h3>
      {plan ? (
        <>
          <p data-testid="history-requests">
            At most about {count(plan.requests)} requests ({plan.minutes.toFixed(1)} min at your plan’s rate),
            for the months before the plan window.
          </p>
          {plan.available ? null : (
            <p className="message-error" role="alert" data-testid="history-refused">
              {plan.reason}
            </p>
          )}
        </>
      ) : problem ? null : (
        <p className="muted">Working out what it will take…</p>
      )}
      {problem ? (
        <p className="message-error" role="alert">
          {problem.problem} {problem.action}
        </p>
      ) : null}
      <div className="actions">
        <button
          type="button"
          className="button primary"
          onClick={start}
          disabled={!plan?.available || starting}
        >
          {starting ? 'Starting…' : 'Start backfill'}
        </button>
        <button type="button" className="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </div>
  );
}

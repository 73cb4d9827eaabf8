/**
 * The opt-in 36-month history backfill (v1's /v1/history): its request count first (planHistory),
 * or why it cannot run, then a confirmation that starts it (startSync with history).
 */
import type { AreaView, HistoryPlan } from '../../src-shared/sync';
import { ConfirmDialog } from '../shell/ConfirmDialog';
import { count } from '../text/count';
import { usePlannedStart } from './usePlannedStart';

export function HistoryConfirm({
  area,
  onDone,
  fallbackFocus,
}: {
  area: AreaView;
  onDone: () => void;
  fallbackFocus?: () => HTMLElement | null | undefined;
}) {
  const { plan, problem, starting, start } = usePlannedStart<HistoryPlan>(
    area.id,
    {
      plan: (client) => client.call('planHistory', { areaIds: [area.id] }),
      start: (client) => client.call('startSync', { areaIds: [area.id], history: true }),
    },
    onDone,
  );

  return (
    <ConfirmDialog
      title={`Backfill ${area.name}’s last 36 months?`}
      confirmLabel="Start backfill"
      busyLabel="Starting…"
      busy={starting}
      confirmDisabled={!plan?.available}
      onConfirm={start}
      onCancel={onDone}
      fallbackFocus={fallbackFocus}
      testId="history-plan"
    >
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
    </ConfirmDialog>
  );
}

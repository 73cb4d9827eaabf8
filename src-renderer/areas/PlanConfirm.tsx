/**
 * Before a sync starts: what it will cost (planSync: requests, and minutes at the plan's rate) and a
 * confirmation. Starting returns at once; progress then arrives as events.
 */
import type { AreaView, SyncPlan } from '../../src-shared/sync';
import { hashOf } from '../app/routes';
import { ConfirmDialog } from '../shell/ConfirmDialog';
import { planText } from './progressText';
import styles from './areas.module.css';
import { usePlannedStart } from './usePlannedStart';

export type PlanConfirmProps = {
  area: AreaView;
  onDone: () => void;
  /** Where focus goes when the dialog closes and the opener is gone (a freshly added area's plan). */
  fallbackFocus?: () => HTMLElement | null | undefined;
};

export function PlanConfirm({ area, onDone, fallbackFocus }: PlanConfirmProps) {
  const { plan, problem, starting, start } = usePlannedStart<SyncPlan>(
    area.id,
    {
      plan: (client) => client.call('planSync', { areaIds: [area.id] }),
      start: (client) => client.call('startSync', { areaIds: [area.id] }),
    },
    onDone,
  );

  const text = plan ? planText(plan, area.id) : null;
  const resuming = area.lastRun !== null && area.lastRun.state !== 'done';
  return (
    <ConfirmDialog
      title={`Sync ${area.name}?`}
      confirmLabel="Start sync"
      busyLabel="Starting…"
      busy={starting}
      confirmDisabled={!plan}
      onConfirm={start}
      onCancel={onDone}
      fallbackFocus={fallbackFocus}
      testId="sync-plan"
    >
      {text ? (
        <>
          <p className={styles.planSummary}>{text.summary}</p>
          {text.detail ? <p className="muted">{text.detail}</p> : null}
          {resuming ? <p className="muted">It picks up the interrupted sync where it stopped.</p> : null}
        </>
      ) : problem ? null : (
        <p className="muted">Working out what it will take…</p>
      )}
      {problem ? (
        <p className="message-error" role="alert">
          {problem.problem} {problem.action}{' '}
          {problem.settings ? <a href={hashOf('settings')}>Open Settings</a> : null}
        </p>
      ) : null}
    </ConfirmDialog>
  );
}

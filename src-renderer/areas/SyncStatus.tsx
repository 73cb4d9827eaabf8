/**
 * An area's sync as it happens: a live progress bar with the state in words, requests done of
 * planned, what changed and the time left; afterwards the outcome, or the failure with what to do.
 */
import type { AreaView } from '../../src-shared/sync';
import { hashOf } from '../app/routes';
import { agoText, ownTimeText } from '../incident/timeText';
import { apiProblem } from '../text/errorText';
import type { SyncProgress } from '../workspace/activity';
import { useNow } from '../workspace/useNow';
import { changesText, fractionDone, isFinished, progressLine } from './progressText';
import styles from './areas.module.css';

export type SyncStatusProps = { area: AreaView; progress: SyncProgress | undefined };

function LastSynced({ area, now }: { area: AreaView; now: number }) {
  if (area.lastSyncedAt === null) return <span>Never synced</span>;
  return (
    <span title={ownTimeText(area.lastSyncedAt)}>
      Last synced {agoText(area.lastSyncedAt, now)} ({ownTimeText(area.lastSyncedAt)})
    </span>
  );
}

export function SyncStatus({ area, progress }: SyncStatusProps) {
  const running = progress !== undefined && !isFinished(progress.state);
  const now = useNow(running);
  if (progress && running) {
    const percent = Math.round(fractionDone(progress) * 100);
    const line = progressLine(progress, now);
    return (
      <div className={styles.syncStatus} data-sync-state={progress.state}>
        <div
          className={styles.syncBar}
          role="progressbar"
          aria-label={`Sync of ${area.name}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={line}
        >
          <span className={styles.syncBarFill} data-state={progress.state} style={{ width: `${percent}%` }} />
        </div>
        <p className={styles.syncLine} aria-live="polite">
          {line}
        </p>
      </div>
    );
  }
  const state = progress?.state ?? (area.syncing ? 'running' : (area.lastRun?.state ?? null));
  const failure =
    progress?.state === 'failed'
      ? progress.error
        ? apiProblem(progress.error.code, progress.error.message)
        : apiProblem('internal', progress.message)
      : !progress && area.lastRun?.state === 'failed'
        ? apiProblem('internal', area.lastRun.error ?? undefined)
        : null;
  return (
    <div className={styles.syncStatus} data-sync-state={state ?? 'never'}>
      <p className={styles.syncLine}>
        <LastSynced area={area} now={now} />
        {progress?.state === 'done' ? ` · this sync: ${changesText(progress)}` : null}
        {!progress && area.lastRun?.state === 'done' ? ` · last sync: ${changesText(area.lastRun)}` : null}
      </p>
      {progress?.state === 'paused' ? (
        <p className={styles.syncNote}>Stopped. The next sync resumes where this one left off.</p>
      ) : null}
      {progress?.state === 'done' && progress.message ? (
        <p className={styles.syncNote}>{progress.message}</p>
      ) : null}
      {failure ? (
        <div className={`callout callout-danger ${styles.syncFailure}`} role="alert">
          <p>
            <strong>The sync failed.</strong> {failure.problem}
          </p>
          {failure.action ? (
            <p>
              {failure.action} {failure.settings ? <a href={hashOf('settings')}>Open Settings</a> : null}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

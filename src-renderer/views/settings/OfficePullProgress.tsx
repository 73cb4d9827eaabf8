/**
 * Settings › Office while a pull runs (the "Pull now" button's, a join's catch-up, the periodic
 * one): a bar of the rows pulled of about the total, and Cancel; after a cancel, what that left in
 * words. A finished or failed pull says nothing here: the section's notice or problem does.
 */
import type { OfficePullProgress as Progress } from '../../../src-shared/officeCalls';
import { count } from '../../text/count';

export type OfficePullProgressProps = {
  progress: Progress | null;
  onCancel: () => void;
  /** Cancel was asked and the pull has not stopped yet. */
  cancelling: boolean;
};

const ofTotal = (p: Progress) =>
  p.total ? `${count(p.rows)} of ${count(p.total)} rows` : `${count(p.rows)} rows`;

export function OfficePullProgress({ progress, onCancel, cancelling }: OfficePullProgressProps) {
  if (progress?.state === 'running')
    return (
      <div role="status" data-testid="office-pull" data-state="running">
        <progress max={Math.max(1, progress.total ?? 0)} value={progress.rows} aria-label="Office pull" />
        <p className="muted">Pulling from the office: {ofTotal(progress)}.</p>
        <button type="button" className="button" disabled={cancelling} onClick={onCancel}>
          {cancelling ? 'Cancelling…' : 'Cancel pull'}
        </button>
      </div>
    );
  if (progress?.state === 'cancelled')
    return (
      <p className="message" role="status" data-testid="office-pull" data-state="cancelled">
        Pull cancelled after {ofTotal(progress)}: nothing half-written was kept, and the next pull brings the
        rest.
      </p>
    );
  return null;
}

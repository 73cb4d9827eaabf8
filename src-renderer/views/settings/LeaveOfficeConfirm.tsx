/**
 * Leaving the office, confirmed. What leaving does (engine/office/service.ts `leave`): the folder's
 * link to the office goes, its connection closes and the password leaves the keychain; the replica
 * stays as a standalone archive and the office database is not touched. Joining again later finds
 * an archive of its own, so it asks to replace it with the office's.
 */
import type { OfficeStatus } from '../../../src-shared/officeCalls';
import { ConfirmDialog } from '../../shell/ConfirmDialog';
import { useConfirmedAction } from '../../shell/useConfirmedAction';
import { count } from '../../text/count';

export type LeaveOfficeConfirmProps = {
  status: OfficeStatus;
  /** The areas this folder's replica holds. */
  areas: number;
  /** Leaves (the call and what follows); a failure is shown in the dialog. */
  onLeave: () => Promise<void>;
  onCancel: () => void;
  fallbackFocus?: () => HTMLElement | null | undefined;
};

const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;

export function LeaveOfficeConfirm({
  status,
  areas,
  onLeave,
  onCancel,
  fallbackFocus,
}: LeaveOfficeConfirmProps) {
  const { busy, problem, run: leave } = useConfirmedAction(onLeave);
  const leading = (status.leaders ?? []).filter((l) => l.mine).length;

  return (
    <ConfirmDialog
      title="Leave the office?"
      confirmLabel="Leave the office"
      busyLabel="Leaving…"
      busy={busy}
      danger
      onConfirm={leave}
      onCancel={onCancel}
      fallbackFocus={fallbackFocus}
      testId="leave-office"
    >
      <p>
        This folder keeps its {plural(status.replicaIncidents, 'incident', 'incidents')} and{' '}
        {plural(areas, 'area', 'areas')} as a standalone archive, but no longer receives the office’s changes
        {leading > 0
          ? `, and the ${leading === 1 ? 'sync' : 'syncs'} it leads for the office now ${leading === 1 ? 'stops' : 'stop'}`
          : ''}
        . The office’s password is removed from this computer’s keychain; the office database is not changed.
      </p>
      <p>Joining again later asks to replace this folder’s archive with the office’s.</p>
      {problem ? (
        <p className="message-error" role="alert">
          {problem}
        </p>
      ) : null}
    </ConfirmDialog>
  );
}

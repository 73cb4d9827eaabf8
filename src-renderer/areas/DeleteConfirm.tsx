/**
 * Deleting an area, confirmed: says what happens to its incidents (those another area also covers
 * stay; the rest leave the local file, history beyond the API's window included, unless kept).
 */
import { useState } from 'react';
import type { AreaView } from '../../src-shared/sync';
import { ConfirmDialog } from '../shell/ConfirmDialog';
import { count } from '../text/count';
import { errorText } from '../text/errorText';
import { useWorkspace } from '../workspace/WorkspaceContext';

export type DeleteConfirmProps = {
  area: AreaView;
  incidents: number | null;
  onCancel: () => void;
  onDeleted: (message: string) => void;
  /** Where focus goes when the dialog closes and the opener is gone. */
  fallbackFocus?: () => HTMLElement | null | undefined;
};

export function DeleteConfirm({ area, incidents, onCancel, onDeleted, fallbackFocus }: DeleteConfirmProps) {
  const { client, removeArea } = useWorkspace();
  const [keep, setKeep] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const remove = () => {
    setBusy(true);
    client.call('deleteArea', { id: area.id, keepIncidents: keep }).then(
      (result) => {
        removeArea(area.id);
        const gone = result.incidentsRemoved;
        onDeleted(
          keep || gone === 0
            ? `Deleted “${area.name}”. Its incidents stay in the local archive.`
            : `Deleted “${area.name}” and ${count(gone)} ${gone === 1 ? 'incident' : 'incidents'} no other area covers.`,
        );
      },
      (failure: unknown) => {
        setProblem(errorText(failure));
        setBusy(false);
      },
    );
  };

  return (
    <ConfirmDialog
      title={`Delete “${area.name}”?`}
      confirmLabel="Delete area"
      busyLabel="Deleting…"
      busy={busy}
      danger
      onConfirm={remove}
      onCancel={onCancel}
      fallbackFocus={fallbackFocus}
      testId="delete-area"
    >
      <p>
        Blotter stops syncing it.{' '}
        {incidents !== null
          ? `It holds ${count(incidents)} ${incidents === 1 ? 'incident' : 'incidents'}. `
          : ''}
        Incidents that another area also covers stay. The others are removed from the local file — including
        history that has left the API’s data window and cannot be fetched again.
      </p>
      <label className="check">
        <input type="checkbox" checked={keep} onChange={(e) => setKeep(e.target.checked)} />
        Keep this area’s incidents in the local archive
      </label>
      {problem ? (
        <p className="message-error" role="alert">
          {problem}
        </p>
      ) : null}
    </ConfirmDialog>
  );
}

/** An area's name, renamed in place: Rename → a field; Enter or Save keeps it, Escape cancels. */
import { useState } from 'react';
import type { AreaView } from '../../src-shared/sync';
import { BridgeCallError } from '../bridge/client';
import { errorText } from '../text/errorText';
import { useWorkspace } from '../workspace/WorkspaceContext';
import styles from './areas.module.css';

export function AreaName({ area, headingId }: { area: AreaView; headingId: string }) {
  const { client, upsertArea } = useWorkspace();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(area.name);
  const [problem, setProblem] = useState<string | null>(null);

  const save = () => {
    if (name.trim() === area.name) return setEditing(false);
    client.call('renameArea', { id: area.id, name }).then(
      (renamed) => {
        upsertArea(renamed);
        setEditing(false);
        setProblem(null);
      },
      (failure: unknown) =>
        setProblem(
          failure instanceof BridgeCallError
            ? (failure.issueFor('name') ?? errorText(failure))
            : errorText(failure),
        ),
    );
  };

  if (!editing) {
    return (
      <div className={styles.areaName}>
        <h2 id={headingId}>{area.name}</h2>
        <button
          type="button"
          className="link-button"
          onClick={() => {
            setName(area.name);
            setEditing(true);
          }}
        >
          Rename
        </button>
      </div>
    );
  }
  return (
    <div className={styles.areaName}>
      <h2 id={headingId} className="visually-hidden">
        {area.name}
      </h2>
      <input
        aria-label="Area name"
        value={name}
        maxLength={120}
        autoFocus
        aria-invalid={problem ? true : undefined}
        onChange={(e) => setName(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') save();
          if (e.key === 'Escape') setEditing(false);
        }}
      />
      <button type="button" className="button" onClick={save}>
        Save
      </button>
      <button type="button" className="link-button" onClick={() => setEditing(false)}>
        Cancel
      </button>
      {problem ? (
        <span className="field-error" role="alert">
          {problem}
        </span>
      ) : null}
    </div>
  );
}

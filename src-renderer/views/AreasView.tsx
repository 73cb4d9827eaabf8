/**
 * Areas: the places Blotter watches and keeps in sync. Add one (city, ZIP code or coordinates), see
 * the plan before syncing, watch the sync, its coverage by day, rename, pause, stop or delete.
 * Until the key and base URL are set, it points to Settings first.
 */
import { useState } from 'react';
import { AddAreaForm } from '../areas/AddAreaForm';
import { AreaCard } from '../areas/AreaCard';
import { EmptyState } from '../shell/EmptyState';
import { ViewFrame } from '../shell/ViewFrame';
import { useWorkspace } from '../workspace/WorkspaceContext';
import type { DataViewProps } from './viewProps';
import styles from '../areas/areas.module.css';

const INTRO = 'The places Blotter watches and keeps in sync.';
const WHAT =
  "An area is a place Blotter watches: a circle around a point, or a shape you draw. Blotter mirrors its incidents within your plan's rate and data window, and keeps them after they leave the API.";

export function AreasView({ setup }: DataViewProps) {
  const { areas, areasError } = useWorkspace();
  const [adding, setAdding] = useState(false);
  const [fresh, setFresh] = useState<number | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  if (areas === null) {
    return (
      <ViewFrame title="Areas" intro={INTRO}>
        <p className={areasError ? 'message-error' : 'muted'} role={areasError ? 'alert' : 'status'}>
          {areasError ?? 'Loading areas…'}
        </p>
      </ViewFrame>
    );
  }

  const added = (id: number) => {
    setAdding(false);
    setFresh(id);
    setNotice(null);
  };

  if (areas.length === 0) {
    return (
      <ViewFrame title="Areas" intro={INTRO}>
        <EmptyState setup={setup} title="No areas yet" text={WHAT} />
        {setup ? null : <AddAreaForm onAdded={(area) => added(area.id)} />}
        {notice ? (
          <p className="message message-ok" role="status">
            {notice}
          </p>
        ) : null}
      </ViewFrame>
    );
  }

  return (
    <ViewFrame title="Areas" intro={INTRO}>
      {setup ? (
        <div className="callout callout-warn" role="note">
          <p>
            <strong>{setup.title}.</strong> {setup.text}{' '}
            <a href={`#/${setup.action.view}`}>{setup.action.label}</a>
          </p>
        </div>
      ) : null}
      {notice ? (
        <p className="message message-ok" role="status">
          {notice}
        </p>
      ) : null}
      {adding ? (
        <AddAreaForm onAdded={(area) => added(area.id)} onCancel={() => setAdding(false)} />
      ) : (
        <div className={`actions ${styles.areasToolbar}`}>
          <button type="button" className="button primary" onClick={() => setAdding(true)}>
            Add an area…
          </button>
        </div>
      )}
      <div className={styles.areaList}>
        {areas.map((area) => (
          <AreaCard
            key={area.id}
            area={area}
            fresh={area.id === fresh}
            onNotice={(text) => {
              setNotice(text);
              if (area.id === fresh) setFresh(null);
            }}
          />
        ))}
      </div>
    </ViewFrame>
  );
}

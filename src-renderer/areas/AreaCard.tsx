/**
 * One watched area: its name (renamed in place), shape, incident count, schedule and pause, the
 * live sync or its outcome, the API surface it uses (with v1's score and trend), coverage by day,
 * and its actions: sync now (after the plan), stop, the 36-month history backfill on v1 (after its
 * count), show its incidents, delete (confirmed).
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { AreaView } from '../../src-shared/sync';
import { useFilters } from '../filters/FiltersContext';
import { count } from '../text/count';
import { useWorkspace } from '../workspace/WorkspaceContext';
import { AreaName } from './AreaName';
import { AreaSettings } from './AreaSettings';
import { CoverageStrip } from './CoverageStrip';
import { DeleteConfirm } from './DeleteConfirm';
import { PlanConfirm } from './PlanConfirm';
import { isFinished } from './progressText';
import { shapeText } from './shapeText';
import { StreetsOffer } from './StreetsOffer';
import { HistoryConfirm } from './HistoryConfirm';
import { SurfaceInfo } from './SurfaceInfo';
import { SyncStatus } from './SyncStatus';
import { useAreaFigures } from './useAreaFigures';
import styles from './areas.module.css';

export type AreaCardProps = {
  area: AreaView;
  /**
   * A freshly added area: focus starts on its first action ("Sync now…", which shows the plan). The
   * plan is a modal confirmation, so it opens when asked, never by itself over the page.
   */
  fresh?: boolean;
  onNotice: (text: string) => void;
};

export function AreaCard({ area, fresh = false, onNotice }: AreaCardProps) {
  const headingId = useId();
  const { client, activity } = useWorkspace();
  const { filters, update } = useFilters();
  const figures = useAreaFigures(area.id);
  const [open, setOpen] = useState<'plan' | 'delete' | 'history' | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const progress = activity.progress.get(area.id);
  const running = progress ? !isFinished(progress.state) : area.syncing;
  const actionsRef = useRef<HTMLDivElement>(null);
  // Where focus goes when a confirmation's opener is gone, and where a fresh area's card starts.
  const firstAction = () => actionsRef.current?.querySelector('button');
  useEffect(() => {
    if (fresh) actionsRef.current?.querySelector('button')?.focus();
  }, [fresh]);

  const show = (view: 'table' | 'map') => {
    update({ area: { areaId: area.id } });
    window.location.hash = `#/${view}`;
  };

  return (
    <article
      className="card area-card"
      aria-labelledby={headingId}
      data-testid="area-card"
      data-area-id={area.id}
    >
      <header className={styles.areaHead}>
        <AreaName area={area} headingId={headingId} />
        <p className={`muted ${styles.areaShape}`}>{shapeText(area.shape)}</p>
      </header>
      <p className={styles.areaFacts}>
        <span data-testid="area-incidents">
          {figures.incidents === null ? '…' : count(figures.incidents)}{' '}
          {figures.incidents === 1 ? 'incident' : 'incidents'} stored
        </span>
      </p>
      <AreaSettings area={area} onProblem={setProblem} />
      <SyncStatus area={area} progress={progress} />
      <SurfaceInfo area={area} />
      <CoverageStrip coverage={figures.coverage} />
      <StreetsOffer areaId={area.id} />
      {problem || figures.error ? (
        <p className="message-error" role="alert">
          {problem ?? figures.error}
        </p>
      ) : null}
      {open === 'plan' ? (
        <PlanConfirm area={area} onDone={() => setOpen(null)} fallbackFocus={firstAction} />
      ) : null}
      {open === 'history' ? (
        <HistoryConfirm area={area} onDone={() => setOpen(null)} fallbackFocus={firstAction} />
      ) : null}
      {open === 'delete' ? (
        <DeleteConfirm
          area={area}
          incidents={figures.incidents}
          onCancel={() => setOpen(null)}
          fallbackFocus={firstAction}
          onDeleted={(text) => {
            const f = filters.area;
            if (f && 'areaId' in f && f.areaId === area.id) update({ area: undefined });
            onNotice(text);
          }}
        />
      ) : null}
      <div className={`actions ${styles.areaActions}`} ref={actionsRef}>
        {running ? (
          <button
            type="button"
            className="button"
            onClick={() => void client.call('stopSync', { areaIds: [area.id] }).catch(() => undefined)}
          >
            Stop sync
          </button>
        ) : (
          <button type="button" className="button primary" onClick={() => setOpen('plan')}>
            Sync now…
          </button>
        )}
        {!running && area.surface?.using === 'v1' && area.surface.history !== false ? (
          <button type="button" className="button" onClick={() => setOpen('history')}>
            Backfill 36 months…
          </button>
        ) : null}
        <button type="button" className="button" onClick={() => show('map')}>
          Show on map
        </button>
        <button type="button" className="button" onClick={() => show('table')}>
          Show in table
        </button>
        <button type="button" className={`button ${styles.areaDelete}`} onClick={() => setOpen('delete')}>
          Delete…
        </button>
      </div>
    </article>
  );
}

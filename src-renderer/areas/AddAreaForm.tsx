/**
 * Adding an area to watch: draw a circle or polygon on the map, or put a circle around a city or
 * ZIP code (bundled gazetteer, offline) or typed coordinates, with a radius in miles; the map
 * previews it. Once added, the area's sync plan is shown before anything is sent.
 */
import { lazy, Suspense, useId, useMemo, useState, type FormEvent } from 'react';
import type { AreaView } from '../../src-shared/sync';
import { BridgeCallError } from '../bridge/client';
import type { Place } from '../gazetteer';
import type { DrawMode } from '../map/drawing';
import { errorText } from '../text/errorText';
import { useWorkspace } from '../workspace/WorkspaceContext';
import {
  emptyDraft,
  previewShape,
  shapeToCreate,
  type AddAreaDraft,
  type AddAreaErrors,
  type Method,
} from './addAreaModel';
import { AreaFields } from './AreaFields';
import { PlaceSearch } from './PlaceSearch';
import { shapeText } from './shapeText';
import styles from './areas.module.css';

const METHODS: { id: Method; label: string }[] = [
  { id: 'draw', label: 'Draw on the map' },
  { id: 'place', label: 'City or ZIP code' },
  { id: 'coordinates', label: 'Coordinates' },
];

// Leaflet loads with the map, not with the Areas view.
const AreaDrawMap = lazy(() => import('../map/AreaDrawMap').then((m) => ({ default: m.AreaDrawMap })));

const coord = (n: number) => String(Math.round(n * 1e5) / 1e5);

export function AddAreaForm({
  onAdded,
  onCancel,
}: {
  onAdded: (area: AreaView) => void;
  onCancel?: () => void;
}) {
  const { client, upsertArea, areas } = useWorkspace();
  const id = useId();
  const [draft, setDraft] = useState<AddAreaDraft>(emptyDraft);
  const [drawMode, setDrawMode] = useState<Exclude<DrawMode, 'none'>>('circle');
  const [focus, setFocus] = useState<{ lat: number; lon: number; zoom: number } | null>(null);
  const [errors, setErrors] = useState<AddAreaErrors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const edit = (patch: Partial<AddAreaDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const preview = useMemo(() => previewShape(draft), [draft]);
  const saved = useMemo(() => (areas ?? []).map((a) => a.shape), [areas]);

  const pick = (place: Place) => {
    setFocus({ lat: place.lat, lon: place.lon, zoom: 13 });
    if (draft.method !== 'draw') edit({ centre: `${coord(place.lat)}, ${coord(place.lon)}` });
    if (!draft.name.trim()) edit({ name: place.label });
    setErrors((e) => ({ ...e, centre: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const made = shapeToCreate(draft);
    if ('errors' in made) return setErrors(made.errors);
    setErrors({});
    setProblem(null);
    setBusy(true);
    client.call('createArea', made).then(
      (area) => {
        upsertArea(area);
        setBusy(false);
        setDraft(emptyDraft);
        onAdded(area);
      },
      (failure: unknown) => {
        setBusy(false);
        if (failure instanceof BridgeCallError && failure.code === 'bad_input') {
          const shape = failure.issues.find((i) => i.path.startsWith('shape'))?.message;
          const key = draft.method === 'draw' ? 'drawn' : 'centre';
          setErrors({ name: failure.issueFor('name'), [key]: shape });
          if (!shape && !failure.issueFor('name')) setProblem(errorText(failure));
        } else setProblem(errorText(failure));
      },
    );
  };

  return (
    <form className={`card ${styles.addArea}`} aria-labelledby={`${id}-title`} onSubmit={submit} noValidate>
      <h2 id={`${id}-title`}>Add an area</h2>
      <div className="segmented" role="group" aria-label="How to choose the area">
        {METHODS.map((m) => (
          <button
            key={m.id}
            type="button"
            aria-pressed={draft.method === m.id}
            onClick={() => edit({ method: m.id })}
          >
            {m.label}
          </button>
        ))}
      </div>
      <div className={styles.addAreaGrid}>
        <div className={styles.addAreaFields}>
          {draft.method !== 'coordinates' ? (
            <PlaceSearch onPick={pick} moveOnly={draft.method === 'draw'} />
          ) : null}
          {draft.method === 'draw' ? (
            <div className="field">
              <div className="segmented" role="group" aria-label="Shape to draw">
                <button
                  type="button"
                  aria-pressed={drawMode === 'circle'}
                  onClick={() => setDrawMode('circle')}
                >
                  Circle
                </button>
                <button
                  type="button"
                  aria-pressed={drawMode === 'polygon'}
                  onClick={() => setDrawMode('polygon')}
                >
                  Polygon
                </button>
              </div>
              <p className="field-hint">
                {drawMode === 'circle'
                  ? 'On the map: click the centre, then click again at the edge.'
                  : 'On the map: click each corner; click the first corner again to close it.'}
              </p>
              <p className={styles.drawnShape} data-testid="drawn-shape" role="status">
                {draft.drawn ? `Drawn: ${shapeText(draft.drawn)}` : 'Nothing drawn yet.'}
              </p>
              {errors.drawn ? <p className="field-error">{errors.drawn}</p> : null}
            </div>
          ) : null}
          <AreaFields draft={draft} errors={errors} edit={edit} />
          {problem ? (
            <p className="message message-error" role="alert">
              {problem}
            </p>
          ) : null}
          <div className="actions">
            <button type="submit" className="button primary" disabled={busy}>
              {busy ? 'Adding…' : 'Add area'}
            </button>
            {onCancel ? (
              <button type="button" className="button" onClick={onCancel}>
                Cancel
              </button>
            ) : null}
          </div>
        </div>
        <Suspense fallback={<div className={`${styles.addAreaMap} map-loading muted`}>Loading the map…</div>}>
          <AreaDrawMap
            className={styles.addAreaMap}
            drawMode={draft.method === 'draw' ? drawMode : 'none'}
            onShapeDrawn={(shape) => {
              edit({ drawn: shape });
              setErrors((e) => ({ ...e, drawn: undefined }));
            }}
            areas={saved}
            preview={preview}
            focus={focus}
          />
        </Suspense>
      </div>
    </form>
  );
}

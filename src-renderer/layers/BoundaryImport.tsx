/**
 * Reading a boundary file (GeoJSON, zipped Shapefile, KML) in the Layers panel: choose it (an upload
 * in the web host, the open dialog in Electron), see what it holds — features, their kind, the
 * coordinate system, names by the attribute picked — then keep it as a reference layer or make
 * areas to sync of its polygons. Nothing is kept until one of the two is pressed.
 */
import { useId, useRef, useState, type ChangeEvent } from 'react';
import type { BoundaryPreview, LayerView } from '../../src-shared/layerCalls';
import type { AreaView } from '../../src-shared/sync';
import { BridgeCallError, type Client } from '../bridge/client';
import { uploadFile } from '../export/upload';
import { errorText } from '../text/errorText';
import styles from './layers.module.css';

const message = (failure: unknown): string =>
  failure instanceof BridgeCallError || !(failure instanceof Error) ? errorText(failure) : failure.message;

const stem = (name: string): string =>
  name
    .replace(/\.[^.]+$/, '')
    .replace(/[_-]+/g, ' ')
    .trim() || 'Layer';

export function BoundaryImport({
  client,
  web,
  onLayer,
  onAreas,
}: {
  client: Client;
  web: boolean;
  onLayer: (layer: LayerView) => void;
  onAreas: (areas: AreaView[]) => void;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState<BoundaryPreview | null>(null);
  const [field, setField] = useState<string | null>(null);
  const [name, setName] = useState('');
  /** Which features become areas: 0 for every polygon feature, else one feature's position. */
  const [which, setWhich] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);

  const read = async (event?: ChangeEvent<HTMLInputElement>) => {
    setProblem(null);
    setOutcome(null);
    setPreview(null);
    setBusy(true);
    try {
      let answer: BoundaryPreview;
      if (web) {
        const file = event?.target.files?.[0];
        if (!file) return;
        const uploaded = await uploadFile(file);
        answer = await client.call('previewBoundaries', {
          source: { uploadId: uploaded.uploadId, name: uploaded.name },
        });
      } else answer = await client.call('previewBoundaries', {});
      setPreview(answer);
      setField(answer.nameField);
      setWhich(0);
      setName(stem(answer.fileName));
    } catch (failure) {
      if (!(failure instanceof BridgeCallError && failure.code === 'cancelled')) setProblem(message(failure));
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };

  const keep = async (as: 'layer' | 'areas') => {
    if (!preview) return;
    setBusy(true);
    setProblem(null);
    try {
      if (as === 'layer') {
        const layer = await client.call('importLayer', {
          previewId: preview.previewId,
          name,
          nameField: field,
        });
        setOutcome(
          `Layer "${layer.name}" kept: ${layer.featureCount} ${layer.featureCount === 1 ? 'feature' : 'features'}.`,
        );
        onLayer(layer);
      } else {
        const made = await client.call('areasFromBoundaries', {
          previewId: preview.previewId,
          nameField: field,
          ...(which > 0 ? { indexes: [which] } : {}),
        });
        setOutcome(
          [
            `${made.areas.length} ${made.areas.length === 1 ? 'area' : 'areas'} added to sync (see Areas).`,
            ...made.notes.slice(0, 3),
          ].join(' '),
        );
        onAreas(made.areas);
      }
      setPreview(null);
    } catch (failure) {
      setProblem(message(failure));
    } finally {
      setBusy(false);
    }
  };

  const cancel = () => {
    if (preview) void client.call('discardBoundaries', { previewId: preview.previewId }).catch(() => {});
    setPreview(null);
  };

  const nameOf = (f: BoundaryPreview['features'][number]): string => {
    const v = field && Object.hasOwn(f.properties, field) ? f.properties[field] : null;
    return v === null || v === undefined || v === '' ? `Feature ${f.index}` : String(v);
  };
  const names = preview ? preview.features.slice(0, 6).map(nameOf) : [];
  const polygons = preview ? preview.features.filter((f) => f.kind === 'polygons') : [];
  const onlyPoints = preview !== null && !preview.kinds.includes('polygons');

  return (
    <div className={styles.section}>
      {web ? (
        <label className={styles.fileLabel}>
          Import boundaries (GeoJSON, zipped Shapefile, KML or KMZ)
          <input
            ref={input}
            type="file"
            accept=".geojson,.json,.zip,.kml,.kmz"
            disabled={busy}
            onChange={(e) => void read(e)}
            data-testid="boundary-file"
          />
        </label>
      ) : (
        <button type="button" disabled={busy} onClick={() => void read()}>
          Import boundaries…
        </button>
      )}
      {busy ? <p className="muted">Reading…</p> : null}
      {preview ? (
        <div className={styles.preview} data-testid="boundary-preview">
          <p>
            <strong>{preview.fileName}</strong>: {preview.featureCount}{' '}
            {preview.featureCount === 1 ? 'feature' : 'features'} ({preview.kinds.join(' and ')}),{' '}
            {preview.crs}
            {preview.skipped.length > 0
              ? `; ${preview.skipped.length} left out (${preview.skipped[0]?.reason})`
              : ''}
            .
          </p>
          <label htmlFor={`${id}-field`}>Names from</label>
          <select id={`${id}-field`} value={field ?? ''} onChange={(e) => setField(e.target.value || null)}>
            <option value="">(none: Feature 1, 2…)</option>
            {preview.fields.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
          <p className={styles.names} data-testid="boundary-names">
            {names.join(' · ')}
            {preview.featureCount > names.length ? ' …' : ''}
          </p>
          <label htmlFor={`${id}-name`}>Layer name</label>
          <input id={`${id}-name`} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
          <label htmlFor={`${id}-which`}>Areas from</label>
          <select id={`${id}-which`} value={which} onChange={(e) => setWhich(Number(e.target.value))}>
            <option value={0}>every polygon feature</option>
            {polygons.map((f) => (
              <option key={f.index} value={f.index}>
                {nameOf(f)}
              </option>
            ))}
          </select>
          <div className={styles.actions}>
            <button type="button" disabled={busy || !name.trim()} onClick={() => void keep('layer')}>
              Keep as reference layer
            </button>
            <button
              type="button"
              disabled={busy || onlyPoints}
              title={onlyPoints ? 'Points make no areas; keep them as a reference layer.' : undefined}
              onClick={() => void keep('areas')}
            >
              Make areas to sync
            </button>
            <button type="button" className="link-button" onClick={cancel}>
              Cancel
            </button>
          </div>
        </div>
      ) : null}
      {outcome ? (
        <p role="status" data-testid="boundary-outcome">
          {outcome}
        </p>
      ) : null}
      {problem ? (
        <p role="alert" className={styles.problem} data-testid="boundary-problem">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

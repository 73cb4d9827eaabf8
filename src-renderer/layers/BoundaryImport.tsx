/**
 * Reading a boundary file (GeoJSON, zipped Shapefile, KML) in the Layers panel: choose it (an upload
 * in the web host, the open dialog in Electron), see what it holds — features, their kind, the
 * coordinate system, names by the attribute picked — then keep it as a reference layer or make
 * areas to sync of its polygons. Nothing is kept until one of the two is pressed. A big file's
 * reading can be cancelled (`cancelBoundaryPreview`): nothing is held.
 */
import { useRef, useState, type ChangeEvent } from 'react';
import type { BoundaryPreview, LayerView } from '../../src-shared/layerCalls';
import type { AreaView } from '../../src-shared/sync';
import { BridgeCallError, type Client } from '../bridge/client';
import { uploadFile } from '../export/upload';
import { errorText } from '../text/errorText';
import { BoundaryPreviewForm, type BoundaryChoice } from './BoundaryPreviewForm';
import styles from './layers.module.css';

const message = (failure: unknown): string =>
  failure instanceof BridgeCallError || !(failure instanceof Error) ? errorText(failure) : failure.message;

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
  const input = useRef<HTMLInputElement>(null);
  /** What is under way: the file being read (Cancel shown), or a preview being kept. */
  const [step, setStep] = useState<'reading' | 'keeping' | null>(null);
  const busy = step !== null;
  /** The user pressed Cancel during this read: its `cancelled` answer is shown, not ignored. */
  const cancelAsked = useRef(false);
  const [preview, setPreview] = useState<BoundaryPreview | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);

  const read = async (event?: ChangeEvent<HTMLInputElement>) => {
    setProblem(null);
    setOutcome(null);
    setPreview(null);
    cancelAsked.current = false;
    setStep('reading');
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
    } catch (failure) {
      // A dialog closed unchosen also answers `cancelled`: only the user's Cancel says so.
      if (!(failure instanceof BridgeCallError && failure.code === 'cancelled')) setProblem(message(failure));
      else if (cancelAsked.current) setOutcome(failure.message);
    } finally {
      setStep(null);
      if (input.current) input.current.value = '';
    }
  };

  const keep = async (as: 'layer' | 'areas', { name, field, which }: BoundaryChoice) => {
    if (!preview) return;
    setStep('keeping');
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
      setStep(null);
    }
  };

  const cancelReading = () => {
    cancelAsked.current = true;
    void client.call('cancelBoundaryPreview', {}).catch((failure: unknown) => setProblem(message(failure)));
  };

  const cancel = () => {
    if (preview) void client.call('discardBoundaries', { previewId: preview.previewId }).catch(() => {});
    setPreview(null);
  };

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
      {step === 'reading' ? (
        <p className="muted">
          Reading…{' '}
          <button type="button" onClick={cancelReading} data-testid="boundary-cancel-reading">
            Cancel
          </button>
        </p>
      ) : null}
      {step === 'keeping' ? <p className="muted">Saving…</p> : null}
      {preview ? (
        <BoundaryPreviewForm
          key={preview.previewId}
          preview={preview}
          busy={busy}
          onKeep={(as, choice) => void keep(as, choice)}
          onCancel={cancel}
        />
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

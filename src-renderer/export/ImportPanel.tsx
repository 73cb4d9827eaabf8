/**
 * Import of incident files into the archive: Blotter's own CSV or GeoJSON, archives delivered
 * outside the API (CSV, JSON or NDJSON rows shaped like the API's incidents), and other systems'
 * CSV files through a column mapping. Choose a file (an upload in the web host, the open dialog in
 * Electron); a file whose columns are not Blotter's gets the mapping editor (the proposal, or the
 * mapping saved for its columns), and the preview follows every change; see the preview with every
 * row problem, then import — the valid rows, or nothing if any row is bad — in one all-or-nothing
 * step. Nothing is written before that.
 */
import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import type { ImportPreview, ImportSource } from '../../src-shared/exports';
import type { ColumnMapping } from '../../src-shared/importMapping';
import type { ImportInspection } from '../../src-shared/importMappingCalls';
import { BridgeCallError, type Client } from '../bridge/client';
import { count } from '../text/count';
import { errorText } from '../text/errorText';
import { importOutcome } from './exportText';
import { ImportPreviewView } from './ImportPreviewView';
import { UnplacedArchive } from './UnplacedArchive';
import { FileColumns } from './FileColumns';
import { MappingEditor } from './MappingEditor';
import { draftOf, mappingOf, type Draft } from './mappingDraft';
import { useMappedPreview } from './useMappedPreview';
import { uploadFile } from './upload';
import styles from './export.module.css';
import mappingStyles from './mapping.module.css';

type Phase = 'idle' | 'uploading' | 'reading' | 'ready' | 'writing';

const message = (failure: unknown): string =>
  failure instanceof BridgeCallError || !(failure instanceof Error) ? errorText(failure) : failure.message;

export function ImportPanel({ client, web }: { client: Client; web: boolean }) {
  const headingId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [phase, setPhase] = useState<Phase>('idle');
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [onBadRows, setOnBadRows] = useState<'skip' | 'abort'>('skip');
  const [outcome, setOutcome] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [inspection, setInspection] = useState<ImportInspection | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const mapped = draft ? mappingOf(draft) : null;
  const mapping: ColumnMapping | null = mapped && 'mapping' in mapped ? mapped.mapping : null;
  // The file read again through each new mapping (one read at a time, the latest mapping last).
  const remap = useMappedPreview(
    client,
    inspection && draft ? inspection.fileId : null,
    mapping,
    (p) => {
      setPreview(p);
      setProblem(null);
    },
    (failure) => {
      setPreview(null);
      setProblem(message(failure));
    },
  );

  useEffect(
    () =>
      client.onEvent((event) => {
        if (event.type === 'importProgress') setProgress({ done: event.done, total: event.total });
      }),
    [client],
  );

  const read = async (source: ImportSource | undefined) => {
    setPhase('reading');
    setProgress(null);
    setInspection(null);
    setDraft(null);
    setSaved(null);
    try {
      const found = await client.call('inspectImport', source ? { source } : {});
      if (found.ownColumns && !found.saved) {
        // Blotter's or the API's own columns: no mapping to make.
        setPreview(await client.call('previewMapped', { fileId: found.fileId }));
      } else {
        setInspection(found);
        setDraft(draftOf(found));
      }
      setPhase('ready');
    } catch (failure) {
      setPhase('idle');
      if (!(failure instanceof BridgeCallError && failure.code === 'cancelled')) setProblem(message(failure));
    }
  };

  const choose = async (event?: ChangeEvent<HTMLInputElement>) => {
    setProblem(null);
    setOutcome(null);
    setPreview(null);
    if (!web) return read(undefined);
    const file = event?.target.files?.[0];
    if (!file) return;
    setPhase('uploading');
    try {
      const uploaded = await uploadFile(file);
      await read({ uploadId: uploaded.uploadId, name: uploaded.name });
    } catch (failure) {
      setPhase('idle');
      setProblem(message(failure));
    } finally {
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  const run = async () => {
    if (!preview) return;
    setPhase('writing');
    setProblem(null);
    try {
      setOutcome(importOutcome(await client.call('runImport', { importId: preview.importId, onBadRows })));
      setPreview(null);
      setInspection(null);
      setDraft(null);
      setPhase('idle');
    } catch (failure) {
      setProblem(message(failure));
      setPhase('ready');
    }
  };

  const discard = async () => {
    if (preview) await client.call('discardImport', { importId: preview.importId }).catch(() => undefined);
    setPreview(null);
    setInspection(null);
    setDraft(null);
    setPhase('idle');
  };

  const save = async () => {
    if (!inspection || !mapping) return;
    setSaved(null);
    try {
      const answer = await client.call('saveMapping', { fileId: inspection.fileId, mapping });
      setSaved(answer.saved);
    } catch (failure) {
      setProblem(message(failure));
    }
  };

  const busy = phase === 'uploading' || phase === 'reading' || phase === 'writing';
  return (
    <section className="card import-panel" aria-labelledby={headingId} aria-busy={busy}>
      <h2 id={headingId}>Import incidents</h2>
      <p>
        Add incidents from a file to the local archive: a Blotter CSV or GeoJSON export, or an archive
        delivered outside the API (CSV, JSON or NDJSON rows with the API’s fields: cdid, type, address, lat,
        lon, link and date as MM/DD/YY HH:MM AM/PM), or another system’s CSV export (Incident Number, Offense,
        Block Address, Date Reported, X/Y…) whose columns you map. Rows are matched by cdid; nothing is
        written until you confirm.
      </p>
      <p className="actions">
        {web ? (
          <label className={`button${busy ? ' disabled' : ''}`}>
            Choose a file to import…
            <input
              ref={fileInput}
              type="file"
              className="visually-hidden"
              accept=".csv,.tsv,.txt,.geojson,.json,.ndjson,.jsonl"
              disabled={busy}
              onChange={(e) => void choose(e)}
              data-testid="import-file"
            />
          </label>
        ) : (
          <button type="button" className="button" disabled={busy} onClick={() => void choose()}>
            Choose a file to import…
          </button>
        )}
      </p>
      {busy ? (
        <div className={styles.exportProgress} role="status">
          {progress && phase !== 'uploading' ? (
            <progress max={Math.max(1, progress.total)} value={progress.done} aria-label="Import progress" />
          ) : (
            <progress aria-label="Import progress" />
          )}
          <p>
            {phase === 'uploading'
              ? 'Uploading the file…'
              : phase === 'reading'
                ? 'Reading and checking every row…'
                : `Writing ${preview ? count(preview.valid) : ''} rows into the archive…`}
          </p>
        </div>
      ) : null}
      {problem ? <p className="message message-error">{problem}</p> : null}
      {outcome ? (
        <p className="message message-ok" role="status" data-testid="import-outcome">
          {outcome}
        </p>
      ) : null}
      {inspection && draft && phase !== 'writing' ? (
        <>
          <FileColumns inspection={inspection} />
          <MappingEditor
            inspection={inspection}
            draft={draft}
            onChange={(d) => {
              setDraft(d);
              setSaved(null);
            }}
          />
          <div className={mappingStyles.mappingActions}>
            <button type="button" className="button" disabled={!mapping} onClick={() => void save()}>
              Save the mapping “{draft.name.trim() || '…'}”
            </button>
            {saved ? (
              <span role="status" data-testid="mapping-saved">
                Saved as “{saved}”: a file with the same columns gets it proposed.
              </span>
            ) : null}
            {mapped && 'missing' in mapped ? (
              <span className="muted" data-testid="mapping-missing">
                To preview, choose {mapped.missing.join(', ')}.
              </span>
            ) : remap.reading ? (
              <span className="muted" role="status">
                Reading the file through the mapping…
              </span>
            ) : null}
          </div>
        </>
      ) : null}
      {preview && phase !== 'writing' && (!draft || (mapping && !remap.stale)) ? (
        <>
          <ImportPreviewView preview={preview} />
          {preview.errorCount > 0 && preview.valid > 0 ? (
            <fieldset className={styles.importChoice}>
              <legend>Rows with problems</legend>
              <label>
                <input
                  type="radio"
                  name="bad-rows"
                  checked={onBadRows === 'skip'}
                  onChange={() => setOnBadRows('skip')}
                />{' '}
                Import the {count(preview.valid)} valid rows and skip the {count(preview.errorCount)} with
                problems
              </label>
              <label>
                <input
                  type="radio"
                  name="bad-rows"
                  checked={onBadRows === 'abort'}
                  onChange={() => setOnBadRows('abort')}
                />{' '}
                Import nothing unless every row is valid
              </label>
            </fieldset>
          ) : null}
          <p className="actions">
            <button
              type="button"
              className="button primary"
              disabled={(preview.valid === 0 && !preview.unplaced) || remap.reading}
              onClick={() => void run()}
            >
              Import {count(preview.valid)} incidents
              {preview.unplaced ? ` and ${count(preview.unplaced.rows)} unplaced` : ''}
            </button>
            <button type="button" className="button" onClick={() => void discard()}>
              Discard
            </button>
          </p>
        </>
      ) : null}
      <UnplacedArchive client={client} web={web} refreshKey={outcome} />
    </section>
  );
}

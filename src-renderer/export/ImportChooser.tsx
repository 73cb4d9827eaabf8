/**
 * Choosing the file to import — an upload in the web host, the open dialog in Electron — and, while
 * the file is uploaded, read or written, what is happening with the engine's progress
 * (`importProgress` events) and a Cancel for the reading and the writing (`cancelImport`).
 */
import { useState, type ChangeEvent, type Ref } from 'react';
import type { Client } from '../bridge/client';
import { useEngineEvent } from '../bridge/useEngineEvent';
import { count } from '../text/count';
import styles from './export.module.css';

export type ImportPhase = 'idle' | 'uploading' | 'reading' | 'ready' | 'writing';

export const isBusy = (phase: ImportPhase): boolean =>
  phase === 'uploading' || phase === 'reading' || phase === 'writing';

/** The engine's progress through the current file: reset when another file is read. */
export function useImportProgress(client: Client) {
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  useEngineEvent(client, ['importProgress'], (event) =>
    setProgress({ done: event.done, total: event.total }),
  );
  return { progress, reset: () => setProgress(null) };
}

type Props = {
  web: boolean;
  phase: ImportPhase;
  progress: { done: number; total: number } | null;
  /** The rows being written (the preview's valid rows). */
  writing: number | null;
  fileInput: Ref<HTMLInputElement>;
  onChoose: (event?: ChangeEvent<HTMLInputElement>) => void;
  /** Cancels the reading or the writing. */
  onCancel: () => void;
};

export function ImportChooser({ web, phase, progress, writing, fileInput, onChoose, onCancel }: Props) {
  const busy = isBusy(phase);
  return (
    <>
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
              onChange={(e) => onChoose(e)}
              data-testid="import-file"
            />
          </label>
        ) : (
          <button type="button" className="button" disabled={busy} onClick={() => onChoose()}>
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
                : `Writing ${writing !== null ? count(writing) : ''} rows into the archive…`}
          </p>
          {phase !== 'uploading' ? <CancelButton onCancel={onCancel} /> : null}
        </div>
      ) : null}
    </>
  );
}

/** Cancel, pressed once: it then says the cancel is under way (a new step mounts a new button). */
function CancelButton({ onCancel }: { onCancel: () => void }) {
  const [asked, setAsked] = useState(false);
  return (
    <button
      type="button"
      className="button"
      disabled={asked}
      onClick={() => {
        setAsked(true);
        onCancel();
      }}
    >
      {asked ? 'Cancelling…' : 'Cancel'}
    </button>
  );
}

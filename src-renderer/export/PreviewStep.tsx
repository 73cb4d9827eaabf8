/**
 * The import's last step: the preview with every row problem, what to do with rows that have
 * problems (when some rows are valid), then Import or Discard.
 */
import type { ImportPreview } from '../../src-shared/exports';
import { count } from '../text/count';
import { ImportPreviewView } from './ImportPreviewView';
import styles from './export.module.css';

export type OnBadRows = 'skip' | 'abort';

type Props = {
  preview: ImportPreview;
  onBadRows: OnBadRows;
  setOnBadRows: (choice: OnBadRows) => void;
  /** The preview is being read again (through a changed mapping). */
  reading: boolean;
  onImport: () => void;
  onDiscard: () => void;
};

export function PreviewStep({ preview, onBadRows, setOnBadRows, reading, onImport, onDiscard }: Props) {
  return (
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
          disabled={(preview.valid === 0 && !preview.unplaced) || reading}
          onClick={onImport}
        >
          Import {count(preview.valid)} incidents
          {preview.unplaced ? ` and ${count(preview.unplaced.rows)} unplaced` : ''}
        </button>
        <button type="button" className="button" onClick={onDiscard}>
          Discard
        </button>
      </p>
    </>
  );
}

/**
 * Deleting a reference layer, confirmed: names the layer and what leaves with it (its features,
 * stored in this data folder; a filter or a count that uses it), and that the file it was imported
 * from is not touched.
 */
import type { LayerView } from '../../src-shared/layerCalls';
import { ConfirmDialog } from '../shell/ConfirmDialog';
import { useConfirmedAction } from '../shell/useConfirmedAction';
import { count } from '../text/count';

export type DeleteLayerConfirmProps = {
  layer: LayerView;
  /** The filter bar keeps the incidents of one of its features. */
  filtering: boolean;
  /** The count near each feature is of this layer. */
  counting: boolean;
  /** Deletes it (the call and what follows); a failure is shown in the dialog. */
  onDelete: () => Promise<void>;
  onCancel: () => void;
  fallbackFocus?: () => HTMLElement | null | undefined;
};

export function DeleteLayerConfirm({
  layer,
  filtering,
  counting,
  onDelete,
  onCancel,
  fallbackFocus,
}: DeleteLayerConfirmProps) {
  const { busy, problem, run: remove } = useConfirmedAction(onDelete);
  const n = layer.featureCount;

  return (
    <ConfirmDialog
      title={`Delete the layer “${layer.name}”?`}
      confirmLabel="Delete layer"
      busyLabel="Deleting…"
      busy={busy}
      danger
      onConfirm={remove}
      onCancel={onCancel}
      fallbackFocus={fallbackFocus}
      testId="delete-layer"
    >
      <p>
        Its {count(n)} {n === 1 ? 'feature is' : 'features are'} deleted from this data folder. The file it
        came from, “{layer.sourceName}”, is not touched: import it again to have the layer back.
      </p>
      {filtering ? (
        <p>The filter by one of its features is removed: every view shows the incidents without it.</p>
      ) : null}
      {counting ? <p>The count near its features closes.</p> : null}
      {problem ? (
        <p className="message-error" role="alert">
          {problem}
        </p>
      ) : null}
    </ConfirmDialog>
  );
}

/** The Layers panel's list: each layer's colour, a checkbox that shows it on the map, Rename and Delete…. */
import { useState, type Ref } from 'react';
import type { LayerView } from '../../src-shared/layerCalls';
import { count as countText } from '../text/count';
import { LAYER_COLOURS } from './referenceLayer';
import styles from './layers.module.css';

type Props = {
  layers: LayerView[];
  shown: ReadonlySet<number>;
  onShow: (layerId: number, show: boolean) => void;
  /** Renames the layer; resolves once the list shows the new name (a failure is the panel's to say). */
  onRename: (layerId: number, name: string) => Promise<boolean>;
  onDelete: (layer: LayerView) => void;
  listRef: Ref<HTMLUListElement>;
};

export function LayerList({ layers, shown, onShow, onRename, onDelete, listRef }: Props) {
  const [renaming, setRenaming] = useState<{ id: number; name: string } | null>(null);
  const rename = async () => {
    if (renaming && (await onRename(renaming.id, renaming.name))) setRenaming(null);
  };
  if (layers.length === 0)
    return <p className="muted">No reference layers yet: import beats, districts, schools or parks.</p>;
  return (
    <ul className={styles.layerList} aria-label="Layers on the map" ref={listRef}>
      {layers.map((layer, k) => (
        <li key={layer.id}>
          <span
            className={styles.swatch}
            style={{ background: LAYER_COLOURS[k % LAYER_COLOURS.length] }}
            aria-hidden="true"
          />
          <label className="check">
            <input
              type="checkbox"
              checked={shown.has(layer.id)}
              onChange={(e) => onShow(layer.id, e.target.checked)}
            />
            {layer.name} ({countText(layer.featureCount)})
          </label>
          {renaming?.id === layer.id ? (
            <form
              className={styles.rename}
              onSubmit={(e) => {
                e.preventDefault();
                void rename();
              }}
            >
              <input
                aria-label={`New name for ${layer.name}`}
                value={renaming.name}
                maxLength={100}
                onChange={(e) => setRenaming({ id: layer.id, name: e.target.value })}
              />
              <button type="submit" disabled={!renaming.name.trim()}>
                Save
              </button>
            </form>
          ) : (
            <button
              type="button"
              className="link-button"
              aria-label={`Rename the layer ${layer.name}`}
              onClick={() => setRenaming({ id: layer.id, name: layer.name })}
            >
              Rename
            </button>
          )}
          <button
            type="button"
            className="link-button"
            aria-label={`Delete the layer ${layer.name}`}
            onClick={() => onDelete(layer)}
          >
            Delete…
          </button>
        </li>
      ))}
    </ul>
  );
}

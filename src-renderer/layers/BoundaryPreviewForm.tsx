/**
 * What a boundary file holds, before anything is kept: its features, their kind and coordinate
 * system, names by the attribute picked, the layer's name and which polygons become areas; then
 * "Keep as reference layer", "Make areas to sync" or Cancel.
 */
import { useId, useState } from 'react';
import type { BoundaryPreview } from '../../src-shared/layerCalls';
import styles from './layers.module.css';

/** What the user chose: the layer's name, the attribute that names features, which become areas. */
export type BoundaryChoice = { name: string; field: string | null; which: number };

const stem = (name: string): string =>
  name
    .replace(/\.[^.]+$/, '')
    .replace(/[_-]+/g, ' ')
    .trim() || 'Layer';

type Props = {
  preview: BoundaryPreview;
  busy: boolean;
  onKeep: (as: 'layer' | 'areas', choice: BoundaryChoice) => void;
  onCancel: () => void;
};

export function BoundaryPreviewForm({ preview, busy, onKeep, onCancel }: Props) {
  const id = useId();
  const [field, setField] = useState<string | null>(preview.nameField);
  const [name, setName] = useState(() => stem(preview.fileName));
  /** Which features become areas: 0 for every polygon feature, else one feature's position. */
  const [which, setWhich] = useState(0);

  const nameOf = (f: BoundaryPreview['features'][number]): string => {
    const v = field && Object.hasOwn(f.properties, field) ? f.properties[field] : null;
    return v === null || v === undefined || v === '' ? `Feature ${f.index}` : String(v);
  };
  const names = preview.features.slice(0, 6).map(nameOf);
  const polygons = preview.features.filter((f) => f.kind === 'polygons');
  const onlyPoints = !preview.kinds.includes('polygons');

  return (
    <div className={styles.preview} data-testid="boundary-preview">
      <p>
        <strong>{preview.fileName}</strong>: {preview.featureCount}{' '}
        {preview.featureCount === 1 ? 'feature' : 'features'} ({preview.kinds.join(' and ')}), {preview.crs}
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
        <button
          type="button"
          disabled={busy || !name.trim()}
          onClick={() => onKeep('layer', { name, field, which })}
        >
          Keep as reference layer
        </button>
        <button
          type="button"
          disabled={busy || onlyPoints}
          title={onlyPoints ? 'Points make no areas; keep them as a reference layer.' : undefined}
          onClick={() => onKeep('areas', { name, field, which })}
        >
          Make areas to sync
        </button>
        <button type="button" className="link-button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

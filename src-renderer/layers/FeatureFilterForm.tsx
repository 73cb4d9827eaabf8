/**
 * The Layers panel's form: a layer and one of its features, a distance in feet or metres, then
 * "Filter by this feature" (inside it, or within the distance) or "Count near each feature".
 */
import { useEffect, useId, useState } from 'react';
import type { LayerView } from '../../src-shared/layerCalls';
import type { Client } from '../bridge/client';
import { useCall } from '../bridge/useCall';
import { layerFeatures, toMetres } from './layerFeatures';
import styles from './layers.module.css';

type Unit = 'ft' | 'm';

type Props = {
  client: Client;
  layers: LayerView[];
  chosen: number | null;
  onChoose: (layerId: number | null) => void;
  onFilter: (feature: { layerId: number; featureId: number; bufferM: number; unit: Unit }) => void;
  onCount: (count: { layerId: number; bufferM: number; unit: Unit }) => void;
  onProblem: (text: string | null) => void;
};

export function FeatureFilterForm({ client, layers, chosen, onChoose, onFilter, onCount, onProblem }: Props) {
  const id = useId();
  const [picked, setPicked] = useState<{ layerId: number; featureId: number | null } | null>(null);
  const [distance, setDistance] = useState('0');
  const [unit, setUnit] = useState<Unit>('ft');

  // The chosen layer's features, for the feature picker (none while they load).
  const answer = useCall(
    () => (chosen === null ? Promise.resolve(null) : layerFeatures(client, chosen)),
    [client, chosen],
  );
  const features = (!answer.loading && answer.data?.features) || [];
  const featureId = picked?.layerId === chosen ? picked.featureId : (features[0]?.id ?? null);
  useEffect(() => {
    if (answer.error) onProblem(answer.error);
  }, [answer.error, onProblem]);

  const metres = (): number | null => {
    onProblem(null);
    const value = Number(distance.replace(/,/g, ''));
    if (!Number.isFinite(value) || value < 0) {
      onProblem('Give a distance of 0 or more.');
      return null;
    }
    return toMetres(value, unit);
  };
  const filterBy = () => {
    const m = metres();
    if (m !== null && chosen !== null && featureId !== null)
      onFilter({ layerId: chosen, featureId, bufferM: m, unit });
  };
  const count = () => {
    const m = metres();
    if (m !== null && chosen !== null) onCount({ layerId: chosen, bufferM: m, unit });
  };

  return (
    <div className={styles.section}>
      <div className={styles.grid}>
        <label htmlFor={`${id}-layer`}>Layer</label>
        <select
          id={`${id}-layer`}
          value={chosen ?? ''}
          onChange={(e) => onChoose(e.target.value ? Number(e.target.value) : null)}
        >
          {layers.map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-feature`}>Feature</label>
        <select
          id={`${id}-feature`}
          value={featureId ?? ''}
          onChange={(e) =>
            chosen !== null &&
            setPicked({ layerId: chosen, featureId: e.target.value ? Number(e.target.value) : null })
          }
        >
          {features.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-distance`}>Distance</label>
        <span className={styles.distance}>
          <input
            id={`${id}-distance`}
            inputMode="decimal"
            value={distance}
            onChange={(e) => setDistance(e.target.value)}
          />
          <select aria-label="Unit" value={unit} onChange={(e) => setUnit(e.target.value as Unit)}>
            <option value="ft">ft</option>
            <option value="m">m</option>
          </select>
        </span>
      </div>
      <div className={styles.actions}>
        <button type="button" onClick={filterBy} disabled={featureId === null}>
          Filter by this feature
        </button>
        <button type="button" onClick={count}>
          Count near each feature
        </button>
      </div>
    </div>
  );
}

/**
 * The count near each feature, once asked for: how many of the filtered incidents are inside (or
 * within the distance of) a feature of the layer, each counted once, and a table per feature. It
 * follows the filters and the archive; a failure goes to the panel and closes the count.
 */
import { useEffect } from 'react';
import type { LayerView } from '../../src-shared/layerCalls';
import { useCall } from '../bridge/useCall';
import { useFilters } from '../filters/FiltersContext';
import { count as countText } from '../text/count';
import { useWorkspace } from '../workspace/WorkspaceContext';
import type { Counting } from './useLayerDrawing';
import styles from './layers.module.css';

type Props = {
  counting: Counting;
  layers: LayerView[];
  onClose: () => void;
  onProblem: (text: string) => void;
};

export function BufferCount({ counting, layers, onClose, onProblem }: Props) {
  const { client } = useWorkspace();
  const { filters, dataVersion } = useFilters();
  const { layerId, bufferM, unit } = counting;
  const answer = useCall(
    () => client.call('countNearLayer', { filters, layerId, bufferM }),
    [client, filters, dataVersion, layerId, bufferM],
  );
  useEffect(() => {
    if (answer.error === null) return;
    onProblem(answer.error);
    onClose();
  }, [answer.error, onProblem, onClose]);
  const counted = answer.loading ? null : answer.data;
  const countedLayer = layers.find((l) => l.id === counted?.layerId);
  const within = (m: number) =>
    m > 0 ? `within ${countText(Math.round(unit === 'ft' ? m / 0.3048 : m))} ${unit} of` : 'inside';

  return (
    <div className={styles.section} data-testid="buffer-count" aria-live="polite">
      {counted && countedLayer ? (
        <>
          <p data-testid="buffer-total">
            <strong>{countText(counted.total)}</strong> of {countText(counted.filtered)} matching incidents
            are {within(counted.bufferM)} a feature of “{countedLayer.name}” (each counted once).
          </p>
          <table className={styles.counts}>
            <thead>
              <tr>
                <th scope="col">Feature</th>
                <th scope="col">Incidents</th>
              </tr>
            </thead>
            <tbody>
              {counted.features.map((f) => (
                <tr key={f.id}>
                  <td>{f.name}</td>
                  <td data-testid="buffer-feature-count">{countText(f.count)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <button type="button" className="link-button" onClick={onClose}>
            Close the count
          </button>
        </>
      ) : (
        <p className="muted">Counting…</p>
      )}
    </div>
  );
}

/**
 * The filter bar's chip for a filter by a reference layer's feature: "Within 1,000 ft of Lincoln
 * Elementary (Schools)" or "Inside Beat 0111 (Beats)", with a button that removes it.
 */
import type { Filters } from '../../src-shared/filters';
import { featureWords } from '../../src-shared/filterWords';
import { useCall } from '../bridge/useCall';
import { useWorkspace } from '../workspace/WorkspaceContext';
import { layerFeatures } from './layerFeatures';
import styles from './layers.module.css';

export function FeatureChip({
  feature,
  update,
}: {
  feature: NonNullable<Filters['feature']>;
  update: (patch: Partial<Filters>) => void;
}) {
  const { client } = useWorkspace();
  const answer = useCall(() => layerFeatures(client, feature.layerId), [client, feature.layerId]);
  const found = answer.data?.features.find((x) => x.id === feature.featureId);
  const name = answer.loading
    ? undefined
    : answer.error !== null
      ? 'a layer that no longer exists'
      : answer.data
        ? found
          ? `${found.name} (${answer.data.layer.name})`
          : 'a feature that no longer exists'
        : undefined;
  return (
    <span className={styles.featureChip} data-testid="feature-chip">
      {featureWords(feature, name)}
      <button
        type="button"
        className={styles.chipRemove}
        aria-label="Remove the layer filter"
        onClick={() => update({ feature: undefined })}
      >
        ×
      </button>
    </span>
  );
}

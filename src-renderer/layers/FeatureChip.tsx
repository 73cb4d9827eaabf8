/**
 * The filter bar's chip for a filter by a reference layer's feature: "Within 1,000 ft of Lincoln
 * Elementary (Schools)" or "Inside Beat 0111 (Beats)", with a button that removes it.
 */
import { useEffect, useState } from 'react';
import type { Filters } from '../../src-shared/filters';
import { featureWords } from '../../src-shared/filterWords';
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
  const [name, setName] = useState<string | undefined>(undefined);
  useEffect(() => {
    let live = true;
    setName(undefined);
    layerFeatures(client, feature.layerId).then(
      (answer) => {
        const f = answer.features.find((x) => x.id === feature.featureId);
        if (live) setName(f ? `${f.name} (${answer.layer.name})` : 'a feature that no longer exists');
      },
      () => live && setName('a layer that no longer exists'),
    );
    return () => {
      live = false;
    };
  }, [client, feature.layerId, feature.featureId]);
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

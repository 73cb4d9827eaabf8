/** The archive's reference layers, read again (and awaited) after an import, a rename or a delete. */
import { useCallback, useEffect, useState } from 'react';
import type { LayerView } from '../../src-shared/layerCalls';
import type { Client } from '../bridge/client';
import { errorText } from '../text/errorText';

export function useLayerList(
  client: Client,
  onProblem: (text: string) => void,
): { layers: LayerView[]; reload: () => Promise<void> } {
  const [layers, setLayers] = useState<LayerView[]>([]);
  const reload = useCallback(async () => {
    try {
      setLayers((await client.call('listLayers', {})).layers);
    } catch (failure) {
      onProblem(errorText(failure));
    }
  }, [client, onProblem]);
  useEffect(() => void reload(), [reload]);
  return { layers, reload };
}

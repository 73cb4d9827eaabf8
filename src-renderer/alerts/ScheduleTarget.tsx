/**
 * What a bulletin schedule is for: an area, or one feature of a reference layer (a beat, a
 * district) — the Layers panel's Layer and Feature selects beside the area's. Choosing a layer
 * sets the feature (its first, until another is chosen); "None" goes back to the area.
 */
import { useEffect, useState } from 'react';
import type { LayerView } from '../../src-shared/layerCalls';
import type { AreaView } from '../../src-shared/sync';
import type { Client } from '../bridge/client';
import { useCurrentEffect } from '../bridge/useCall';
import { layerFeatures } from '../layers/layerFeatures';
import { errorText } from '../text/errorText';

export type Target = { areaId: string; layerId: string; featureId: string };

type Props = {
  client: Client;
  id: string;
  areas: AreaView[];
  value: Target;
  onChange: (t: Target) => void;
  onError: (message: string) => void;
};

export function ScheduleTarget({ client, id, areas, value, onChange, onError }: Props) {
  const [layers, setLayers] = useState<LayerView[]>([]);
  const [features, setFeatures] = useState<{ id: number; name: string }[]>([]);
  useEffect(() => {
    client.call('listLayers', {}).then(
      (r) => setLayers(r.layers),
      (e: unknown) => onError(errorText(e)),
    );
  }, [client, onError]);
  useCurrentEffect(
    (current) => {
      if (!value.layerId) return setFeatures([]);
      layerFeatures(client, Number(value.layerId)).then(
        (r) => current() && setFeatures(r.features.map((f) => ({ id: f.id, name: f.name }))),
        (e: unknown) => onError(errorText(e)),
      );
    },
    [client, value.layerId, onError],
  );

  return (
    <>
      <label htmlFor={`${id}-area`}>Area</label>
      <select
        id={`${id}-area`}
        value={value.areaId}
        disabled={value.layerId !== ''}
        onChange={(e) => onChange({ ...value, areaId: e.target.value })}
      >
        {areas.map((a) => (
          <option key={a.id} value={a.id}>
            {a.name}
          </option>
        ))}
      </select>
      {layers.length > 0 ? (
        <>
          <label htmlFor={`${id}-layer`}>Or a layer’s feature: Layer</label>
          <select
            id={`${id}-layer`}
            value={value.layerId}
            onChange={(e) => onChange({ ...value, layerId: e.target.value, featureId: '' })}
          >
            <option value="">None (the area)</option>
            {layers.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </select>
          <label htmlFor={`${id}-feature`}>Feature</label>
          <select
            id={`${id}-feature`}
            value={value.featureId || String(features[0]?.id ?? '')}
            disabled={value.layerId === ''}
            onChange={(e) => onChange({ ...value, featureId: e.target.value })}
          >
            {features.map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
          </select>
        </>
      ) : null}
    </>
  );
}

/** The schedule input's target for a chosen one (the first feature when none was picked yet). */
export async function targetInput(
  client: Client,
  t: Target,
): Promise<{ areaId: number } | { feature: { layerId: number; featureId: number } }> {
  if (!t.layerId) return { areaId: Number(t.areaId) };
  const featureId =
    t.featureId || String((await layerFeatures(client, Number(t.layerId))).features[0]?.id ?? '');
  if (!featureId) throw new Error('That layer has no features to schedule.');
  return { feature: { layerId: Number(t.layerId), featureId: Number(featureId) } };
}

/**
 * CompStat's "Tables by": one table per area (the default), or one per feature of a reference
 * layer — a commander reads CompStat by beat or district (the CLI's `analyze compstat --layer`).
 * Lists the archive's layers; offers nothing more when there are none.
 */
import type { Client } from '../bridge/client';
import { useCall } from '../bridge/useCall';

type Props = {
  client: Client;
  /** The chosen layer's id as text; '' for one table per area. */
  value: string;
  onChange: (layerId: string) => void;
};

export function CompStatTablesBy({ client, value, onChange }: Props) {
  // No layers to offer (none, or the call failed): the tables stay by area.
  const layers = useCall(() => client.call('listLayers', {}), [client]).data?.layers ?? [];
  if (layers.length === 0) return null;
  return (
    <label>
      Tables by
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Area (one table per area)</option>
        {layers.map((layer) => (
          <option key={layer.id} value={String(layer.id)}>
            {`Feature of ${layer.name} (one table per feature)`}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Map: incidents of the watched areas on an offline map. Empty until an area has synced. */
import { EmptyState } from '../shell/EmptyState';
import { ViewFrame } from '../shell/ViewFrame';
import type { DataViewProps } from './viewProps';

export function MapView({ setup }: DataViewProps) {
  return (
    <ViewFrame title="Map" intro="The incidents of the areas you watch, on a map that works offline.">
      <EmptyState
        setup={setup}
        title="No incidents yet"
        text="Add an area to watch in Areas, then sync it. Its incidents appear on this map and stay available offline."
        action={{ view: 'areas', label: 'Go to Areas' }}
      />
    </ViewFrame>
  );
}

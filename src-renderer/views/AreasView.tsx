/** Areas: the places Blotter watches and keeps in sync. Empty until the first area is added. */
import { EmptyState } from '../shell/EmptyState';
import { ViewFrame } from '../shell/ViewFrame';
import type { DataViewProps } from './viewProps';

export function AreasView({ setup }: DataViewProps) {
  return (
    <ViewFrame title="Areas" intro="The places Blotter watches and keeps in sync.">
      <EmptyState
        setup={setup}
        title="No areas yet"
        text="An area is a place Blotter watches: a circle around a point, or a shape you draw. Blotter mirrors its incidents within your plan's rate and data window. Adding areas arrives in a coming version; meanwhile, check that your plan in Settings matches your subscription."
        action={{ view: 'settings', label: 'Review your plan' }}
      />
    </ViewFrame>
  );
}

/** Table: every local incident, one row each. Empty until an area has synced. */
import { EmptyState } from '../shell/EmptyState';
import { ViewFrame } from '../shell/ViewFrame';
import type { DataViewProps } from './viewProps';

export function TableView({ setup }: DataViewProps) {
  return (
    <ViewFrame title="Table" intro="Every incident in your local archive, one row each.">
      <EmptyState
        setup={setup}
        title="No incidents to list"
        text="Once an area has synced, its incidents are listed here, one row each, to sort, filter and open. Add an area in Areas to begin."
        action={{ view: 'areas', label: 'Go to Areas' }}
      />
    </ViewFrame>
  );
}

/** History: trends over the whole local archive. Empty until an area has synced. */
import { EmptyState } from '../shell/EmptyState';
import { ViewFrame } from '../shell/ViewFrame';
import type { DataViewProps } from './viewProps';

export function HistoryView({ setup }: DataViewProps) {
  return (
    <ViewFrame
      title="History"
      intro="Trends over the whole local archive: periods compared, hour by weekday."
    >
      <EmptyState
        setup={setup}
        title="No history yet"
        text="History charts trends over everything Blotter has kept, including incidents that have left the API's data window. It fills in as your areas sync."
        action={{ view: 'areas', label: 'Go to Areas' }}
      />
    </ViewFrame>
  );
}

/** Export: the filtered incidents as a CSV file. Empty until an area has synced. */
import { EmptyState } from '../shell/EmptyState';
import { ViewFrame } from '../shell/ViewFrame';
import type { DataViewProps } from './viewProps';

export function ExportView({ setup }: DataViewProps) {
  return (
    <ViewFrame title="Export" intro="The incidents you filter, as a CSV file for reports.">
      <EmptyState
        setup={setup}
        title="Nothing to export yet"
        text="Export writes the incidents you have filtered to a CSV file for your reports. Sync an area first, in Areas."
        action={{ view: 'areas', label: 'Go to Areas' }}
      />
    </ViewFrame>
  );
}

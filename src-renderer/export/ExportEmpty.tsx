/** What Export says while the archive holds nothing: so, and point to Areas (imports stay offered below). */
import type { ReactNode } from 'react';
import { EmptyState } from '../shell/EmptyState';
import { ViewFrame } from '../shell/ViewFrame';
import type { DataViewProps } from '../views/viewProps';

export const EXPORT_INTRO =
  'The incidents you filter, as a file for reports; and files of incidents to import.';

export function ExportEmptyState({ setup }: DataViewProps) {
  return (
    <EmptyState
      setup={setup}
      title="Nothing to export yet"
      text="Export writes the incidents you have filtered to CSV, GeoJSON or a PDF report. Sync an area first, in Areas, or import an archive below."
      action={{ view: 'areas', label: 'Go to Areas' }}
    />
  );
}

/** The Export view while the archive holds nothing (for tests and previews). */
export function ExportEmpty({ setup, children }: DataViewProps & { children?: ReactNode }) {
  return (
    <ViewFrame title="Export" intro={EXPORT_INTRO}>
      <ExportEmptyState setup={setup} />
      {children}
    </ViewFrame>
  );
}

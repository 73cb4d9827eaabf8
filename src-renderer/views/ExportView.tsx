/**
 * Export: exactly the filtered incidents as CSV, GeoJSON or a PDF report, each with a manifest
 * beside it; and imports of incident files into the archive. Until the archive holds incidents it
 * says so, and offers the import.
 */
import { useFilters } from '../filters/FiltersContext';
import { EXPORT_INTRO, ExportEmptyState } from '../export/ExportEmpty';
import { ExportPanel } from '../export/ExportPanel';
import { ImportPanel } from '../export/ImportPanel';
import { useCall } from '../bridge/useCall';
import { ViewFrame } from '../shell/ViewFrame';
import { useWorkspace } from '../workspace/WorkspaceContext';
import type { DataViewProps } from './viewProps';

export function ExportView({ setup }: DataViewProps) {
  const { client } = useWorkspace();
  const { filters, dataVersion } = useFilters();
  const info = useCall(() => client.call('getAppInfo', {}), [client]);
  const summary = useCall(() => client.call('getArchiveSummary', {}), [client, dataVersion]);
  const web = info.data?.host === 'web';
  const importing = info.data ? <ImportPanel client={client} web={web} /> : null;

  const empty = summary.data !== null && summary.data.total === 0 && summary.data.removed === 0;
  const known = summary.data !== null || summary.error !== null;
  // One frame in every state, so the focused heading stays the same element while data arrives.
  return (
    <ViewFrame title="Export" intro={EXPORT_INTRO}>
      {!known ? (
        <p className="muted">Loading…</p>
      ) : empty ? (
        <ExportEmptyState setup={setup} />
      ) : (
        <ExportPanel client={client} filters={filters} dataVersion={dataVersion} web={web} />
      )}
      {known ? importing : null}
    </ViewFrame>
  );
}

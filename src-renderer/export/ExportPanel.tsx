/**
 * Export of exactly the filtered incidents: choose CSV (with an optional byte-order mark for
 * Excel), GeoJSON or the PDF report; see what will be exported (the filters in words and the
 * count); follow the progress, cancel, and get the file with its manifest.
 */
import { useId, useState } from 'react';
import type { ExportFormat } from '../../src-shared/exports';
import { filterWords } from '../../src-shared/filterWords';
import type { Filters } from '../../src-shared/filters';
import type { Client } from '../bridge/client';
import { useCall } from '../bridge/useCall';
import { count } from '../text/count';
import { useWorkspace } from '../workspace/WorkspaceContext';
import { ExportResult } from './ExportResult';
import { FORMATS, progressText } from './exportText';
import { useExportJob } from './useExportJob';
import { ReportOptionsFields, useReportOptions } from '../report/ReportOptionsFields';
import styles from './export.module.css';

export function ExportPanel({
  client,
  filters,
  dataVersion,
  web,
}: {
  client: Client;
  filters: Filters;
  dataVersion: number;
  web: boolean;
}) {
  const headingId = useId();
  const { areas } = useWorkspace();
  const [format, setFormat] = useState<ExportFormat>('csv');
  const [bom, setBom] = useState(false);
  const job = useExportJob(client);
  const report = useReportOptions(client);
  const counted = useCall(
    () => client.call('countIncidents', { filters }),
    [JSON.stringify(filters), dataVersion],
  );
  const words = filterWords(filters, {
    range: counted.data?.range ?? null,
    areaName: (id) => areas?.find((a) => a.id === id)?.name,
  });
  const total = counted.data?.total ?? null;
  const event = job.event;

  return (
    <section className="card export-panel" aria-labelledby={headingId}>
      <h2 id={headingId}>Export the filtered incidents</h2>
      <div className={styles.exportWhat} data-testid="export-what">
        <p>
          <strong data-testid="export-count">{total === null ? '…' : count(total)}</strong> incidents match
          the filters:
        </p>
        <ul>
          {words.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      </div>
      <fieldset className={styles.exportFormats} disabled={job.running}>
        <legend>Format</legend>
        {FORMATS.map((f) => (
          <label key={f.value} className={styles.exportFormat}>
            <input
              type="radio"
              name="export-format"
              value={f.value}
              checked={format === f.value}
              onChange={() => setFormat(f.value)}
            />
            <span>
              <strong>{f.label}</strong> <span className="muted">{f.hint}</span>
            </span>
          </label>
        ))}
        {format === 'csv' ? (
          <label className={styles.exportBom}>
            <input type="checkbox" checked={bom} onChange={(e) => setBom(e.target.checked)} /> Start with a
            byte-order mark (Excel needs it to read accented letters correctly)
          </label>
        ) : null}
      </fieldset>
      {format === 'pdf' ? <ReportOptionsFields state={report} disabled={job.running} /> : null}
      <p className="actions">
        <button
          type="button"
          className="button primary"
          disabled={job.running || total === null}
          onClick={() =>
            void (format === 'pdf' ? report.save() : Promise.resolve())
              .catch(() => undefined) // the report is still made; the fields are not kept
              .then(() => job.start({ format, filters, ...(format === 'csv' ? { bom } : {}) }))
          }
        >
          {format === 'pdf'
            ? 'Create the PDF report'
            : `Export ${total === null ? '' : count(total)} incidents`}
        </button>
      </p>
      {web ? (
        <p className="muted small">
          The file is saved in the data folder’s exports/ and offered for download.
        </p>
      ) : null}
      {job.error ? <p className="message message-error">{job.error}</p> : null}
      {event ? (
        <div className={styles.exportProgress} data-testid="export-progress" data-state={event.state}>
          {event.state === 'running' || event.state === 'printing' ? (
            <>
              <progress
                max={event.state === 'printing' ? undefined : Math.max(1, event.total)}
                value={event.state === 'printing' ? undefined : event.done}
                aria-label="Export progress"
              />
              <button type="button" className="button" onClick={() => void job.cancel()}>
                Cancel
              </button>
            </>
          ) : null}
          <p role="status" className={event.state === 'failed' ? 'message message-error' : undefined}>
            {progressText(event)}
          </p>
          {event.state === 'done' && event.file ? (
            <ExportResult file={event.file} manifest={event.manifest} web={web} />
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

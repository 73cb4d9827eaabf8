/**
 * A finished export: where the file is (the web host offers it and its manifest for download; in
 * Electron it is where the save dialog put it), and what the manifest records.
 */
import type { ExportFile, Manifest } from '../../src-shared/exports';
import { downloadPath } from '../../src-shared/webProtocol';
import { count } from '../text/count';
import { bytesText } from './exportText';
import styles from './export.module.css';

export function ExportResult({
  file,
  manifest,
  web,
}: {
  file: ExportFile;
  manifest?: Manifest;
  web: boolean;
}) {
  const types = manifest
    ? Object.entries(manifest.counts.byType)
        .sort((a, b) => b[1] - a[1])
        .map(([t, n]) => `${t} ${count(n)}`)
        .join(', ')
    : '';
  return (
    <div className={styles.exportResult} data-testid="export-result">
      <p>
        <strong>{file.name}</strong> <span className="muted">({bytesText(file.bytes)})</span>
      </p>
      {web ? (
        <p className="actions">
          <a
            className="button primary"
            href={downloadPath(file.name)}
            download={file.name}
            data-testid="export-download"
          >
            Download
          </a>
          <a className="button" href={downloadPath(file.manifestName)} download={file.manifestName}>
            Download the manifest
          </a>
        </p>
      ) : (
        <p>
          Saved to <code>{file.path}</code>, with its manifest <code>{file.manifestName}</code> beside it.
        </p>
      )}
      {manifest ? (
        <details className={styles.exportManifest}>
          <summary>What the manifest records</summary>
          <dl className="facts">
            <dt>Written</dt>
            <dd>
              {count(manifest.counts.written)} of {count(manifest.counts.total)} matching incidents, on{' '}
              {manifest.createdAt.replace('T', ' ').slice(0, 16)} UTC by Blotter {manifest.app.version}
            </dd>
            <dt>Filters</dt>
            <dd>{manifest.filterWords.join('; ')}</dd>
            <dt>By type</dt>
            <dd>{types || 'none'}</dd>
            <dt>Areas</dt>
            <dd>
              {manifest.provenance.areas.length === 0
                ? 'No saved area'
                : manifest.provenance.areas
                    .map(
                      (a) =>
                        `${a.name} (last synced ${a.lastSyncedAt ? new Date(a.lastSyncedAt).toISOString().slice(0, 16).replace('T', ' ') + ' UTC' : 'never'}; ${a.gaps.length === 0 ? 'no gaps' : `${count(a.missingDays)} days missing`})`,
                    )
                    .join('; ')}
            </dd>
            <dt>Plan</dt>
            <dd>
              {manifest.provenance.plan.label}: the API serves the last {manifest.provenance.plan.windowDays}{' '}
              days
            </dd>
          </dl>
        </details>
      ) : null}
    </div>
  );
}

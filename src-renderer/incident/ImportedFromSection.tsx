/**
 * An imported incident's provenance line — the file, the column mapping (with its fingerprint) and
 * when — its id in the other system, and the file's columns kept with it as attributes. Text only.
 */
import type { ImportedFrom } from '../../src-shared/incidentQueries';
import { ownTimeText } from './timeText';
import styles from './incident.module.css';

export function importedFromText(from: ImportedFrom): string {
  const mapping = from.mappingName
    ? ` through the mapping “${from.mappingName}”${from.mappingHash ? ` (${from.mappingHash})` : ''}`
    : '';
  const id = from.externalId ? `; its id there: ${from.externalId}` : '';
  return `Imported from ${from.fileName}${mapping}, ${ownTimeText(from.importedAt)}${id}.`;
}

export function ImportedFromSection({ from }: { from: ImportedFrom }) {
  const kept = Object.entries(from.attributes);
  return (
    <>
      <p className="muted" data-testid="incident-provenance">
        {importedFromText(from)}
      </p>
      {kept.length > 0 ? (
        <>
          <h3 className={styles.incidentDetails}>Kept from the file</h3>
          <dl className={styles.incidentFacts} data-testid="incident-attributes">
            {kept.map(([name, value]) => (
              <div key={name} className={styles.fact}>
                <dt>{name}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        </>
      ) : null}
    </>
  );
}

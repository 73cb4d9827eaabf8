/** What a previewed import holds: format, counts, the first rows, and every listed row problem. */
import type { ImportPreview } from '../../src-shared/exports';
import { count } from '../text/count';
import { bytesText, IMPORT_FORMATS } from './exportText';
import styles from './export.module.css';
import { importChanges, newRows } from './importChanges';
import { UnplacedRows } from './UnplacedRows';

export function ImportPreviewView({ preview }: { preview: ImportPreview }) {
  const p = preview;
  return (
    <div className={styles.importPreview} data-testid="import-preview">
      <p>
        <strong>{p.fileName}</strong> <span className="muted">({bytesText(p.bytes)})</span>, read as{' '}
        {p.mapping ? `a CSV through the mapping “${p.mapping}”` : IMPORT_FORMATS[p.format]}.
      </p>
      {p.unusable !== undefined ? (
        <p role="alert" className="message message-error" data-testid="import-unusable">
          {p.unusable} Nothing can be imported from this file: change the mapping or fix the file, then
          preview it again.
        </p>
      ) : null}
      <dl className="facts">
        <dt>Rows</dt>
        <dd>{count(p.rows)}</dd>
        <dt>Valid</dt>
        <dd>{count(p.valid)}</dd>
        <dt>With problems</dt>
        <dd>
          {count(p.errorCount)}
          {p.failures.length > 0
            ? ` (${p.failures.map((f) => `${f.field ?? 'the record'}: ${count(f.rows)}`).join(', ')})`
            : ''}
        </dd>
        <dt>Repeated in the file</dt>
        <dd>
          {count(p.duplicatesInFile)}
          {p.repeats.ids > 0
            ? ` (${count(p.repeats.ids)} ${p.repeats.ids === 1 ? 'id is' : 'ids are'} on more than one row; ${count(p.repeats.differing)} of those rows differ from the copy kept and would not be imported)`
            : ''}
        </dd>
        <dt>New</dt>
        <dd>{count(newRows(p))}</dd>
        <dt>Already in the archive</dt>
        <dd>{count(p.existing)}</dd>
      </dl>
      <p data-testid="import-changes">
        {importChanges(p)} An import never changes what the API gave: it can only add a missing description.
      </p>
      {p.sample.length > 0 ? (
        <table className="data-table import-sample">
          <caption>The first rows</caption>
          <thead>
            <tr>
              <th scope="col">cdid</th>
              <th scope="col">Type</th>
              <th scope="col">Local time</th>
              <th scope="col">Time zone</th>
              <th scope="col">Address</th>
            </tr>
          </thead>
          <tbody>
            {p.sample.map((r) => (
              <tr key={r.cdid}>
                <td>{r.cdid}</td>
                <td>
                  {r.type}
                  {r.subtype && r.subtype !== r.type ? <span className="muted"> ({r.subtype})</span> : null}
                </td>
                <td>{r.occurredLocal.replace('T', ' ')}</td>
                <td>{r.timezone}</td>
                <td>{r.address}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {p.repeats.listed.length > 0 ? (
        <table className="data-table import-repeats" data-testid="import-repeats">
          <caption>
            Ids on more than one row
            {p.repeats.ids > p.repeats.listed.length
              ? ` (the first ${count(p.repeats.listed.length)} of ${count(p.repeats.ids)})`
              : ''}
            {p.repeats.differing > 0
              ? '. Rows that differ share an id: to import each of them, map an id column unique to each row, or none (each row is then known by its content).'
              : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">Id</th>
              <th scope="col">Rows</th>
              <th scope="col">What happens</th>
            </tr>
          </thead>
          <tbody>
            {p.repeats.listed.map((r) => (
              <tr key={`${r.id}-${r.kept}`}>
                <td>{r.id}</td>
                <td>
                  {r.rows.join(', ')}
                  {r.count > r.rows.length ? ` and ${count(r.count - r.rows.length)} more` : ''}
                </td>
                <td>
                  {r.same
                    ? 'The same record: imported once.'
                    : `They differ: only row ${r.kept} is imported; the others add at most a description it lacks.`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {p.unplaced ? <UnplacedRows unplaced={p.unplaced} /> : null}
      {p.errors.length > 0 ? (
        <table className="data-table import-errors" data-testid="import-errors">
          <caption>
            Rows with problems
            {p.errorCount > p.errors.length
              ? ` (the first ${count(p.errors.length)} of ${count(p.errorCount)})`
              : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">Row</th>
              <th scope="col">Field</th>
              <th scope="col">Problem</th>
            </tr>
          </thead>
          <tbody>
            {p.errors.map((e) => (
              <tr key={`${e.row}-${e.field}`}>
                <td>{e.row === 0 ? 'file' : e.row}</td>
                <td>{e.field ?? '—'}</td>
                <td>{e.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

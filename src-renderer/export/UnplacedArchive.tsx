/**
 * The archive's rows waiting for a place (issue 28): how many and the first with why, a reference
 * file to add — TIGER/Line EDGES or ADDRFEAT centre lines (zipped Shapefile or .shp), address points
 * (CSV or GeoJSON) — which tries every row again, and "Try again" on request. The file is chosen as
 * the import's is: an upload in the web host, the open dialog in Electron (addPlaceReference is
 * host-then-engine). `refreshKey` changes when an import wrote rows, so the list is read again.
 */
import { useCallback, useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import type { PlaceOutcome, UnplacedList } from '../../src-shared/placesCalls';
import { BridgeCallError, type Client } from '../bridge/client';
import { InlineError } from '../shell/InlineMessage';
import { count } from '../text/count';
import { errorText } from '../text/errorText';
import { uploadFile } from './upload';
import styles from './export.module.css';

const message = (failure: unknown): string =>
  failure instanceof BridgeCallError || !(failure instanceof Error) ? errorText(failure) : failure.message;

/** What a try did, as the CLI says it (`blotter places retry`). */
export function placeOutcomeText(o: PlaceOutcome): string {
  const how = Object.entries(o.byMethod)
    .map(([m, n]) => `${m} ${count(n)}`)
    .join(', ');
  return `Placed ${count(o.placed)} of ${count(o.tried)} unplaced rows${how ? ` (${how})` : ''}; ${count(o.unplaced)} still unplaced.`;
}

export function UnplacedArchive({
  client,
  web,
  refreshKey,
}: {
  client: Client;
  web: boolean;
  refreshKey?: unknown;
}) {
  const headingId = useId();
  const errorId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [list, setList] = useState<UnplacedList | null>(null);
  const [busy, setBusy] = useState<'adding' | 'placing' | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setList(await client.call('listUnplaced', { limit: 100 }));
    } catch (failure) {
      setProblem(message(failure));
    }
  }, [client]);
  useEffect(() => void load(), [load, refreshKey]);

  const act = async (what: 'adding' | 'placing', call: () => Promise<string>) => {
    setBusy(what);
    setProblem(null);
    setOutcome(null);
    try {
      setOutcome(await call());
      await load();
    } catch (failure) {
      if (!(failure instanceof BridgeCallError && failure.code === 'cancelled')) setProblem(message(failure));
    } finally {
      setBusy(null);
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  const addReference = (event?: ChangeEvent<HTMLInputElement>) => {
    const file = event?.target.files?.[0];
    if (web && !file) return;
    void act('adding', async () => {
      const source = file ? await uploadFile(file) : null;
      const r = await client.call(
        'addPlaceReference',
        source ? { source: { uploadId: source.uploadId, name: source.name } } : {},
      );
      const left = r.skipped ? ` (${count(r.skipped)} left out: no name, number or range)` : '';
      return `Added ${count(r.items)} ${r.kind}${left}. ${placeOutcomeText(r.retry)}`;
    });
  };
  const retry = () => void act('placing', async () => placeOutcomeText(await client.call('retryPlaces', {})));

  if (!list || (list.count === 0 && !outcome)) return null;
  return (
    <section className="import-unplaced-archive" aria-labelledby={headingId} aria-busy={busy !== null}>
      <h3 id={headingId} data-testid="unplaced-count">
        {list.count === 0
          ? 'No row waits for a place'
          : `${count(list.count)} ${list.count === 1 ? 'row waits' : 'rows wait'} for a place`}
      </h3>
      <p className="muted">
        Rows with an address but no coordinates are kept outside the map until the archive’s own blocks or a
        reference file place them: street centre lines (TIGER/Line EDGES or ADDRFEAT, a zipped Shapefile or
        .shp) or address points (CSV or GeoJSON).
      </p>
      <p className="actions">
        {web ? (
          <label className={`button${busy ? ' disabled' : ''}`}>
            Add a reference file…
            <input
              ref={fileInput}
              type="file"
              className="visually-hidden"
              accept=".zip,.shp,.csv,.geojson,.json"
              disabled={busy !== null}
              onChange={addReference}
              data-testid="place-reference-file"
            />
          </label>
        ) : (
          <button type="button" className="button" disabled={busy !== null} onClick={() => addReference()}>
            Add a reference file…
          </button>
        )}
        <button
          type="button"
          className="button"
          disabled={busy !== null || list.count === 0}
          aria-describedby={problem ? errorId : undefined}
          onClick={retry}
        >
          Try again
        </button>
      </p>
      {busy ? (
        <div className={styles.exportProgress} role="status">
          <progress aria-label="Placing progress" />
          <p>{busy === 'adding' ? 'Reading the reference file and placing rows…' : 'Placing rows…'}</p>
        </div>
      ) : null}
      <InlineError
        id={errorId}
        message={problem}
        className="message message-error"
        testId="unplaced-problem"
      />
      {outcome ? (
        <p className="message message-ok" role="status" data-testid="unplaced-outcome">
          {outcome}
        </p>
      ) : null}
      {list.rows.length > 0 ? (
        <table className="data-table import-unplaced" data-testid="unplaced-list">
          <caption>
            {list.count > list.rows.length ? `The first ${count(list.rows.length)}` : 'Every one'}, newest
            import first
          </caption>
          <thead>
            <tr>
              <th scope="col">Row</th>
              <th scope="col">Address</th>
              <th scope="col">Type</th>
              <th scope="col">Occurred</th>
              <th scope="col">Why unplaced</th>
            </tr>
          </thead>
          <tbody>
            {list.rows.map((r) => (
              <tr key={r.cdid}>
                <td>{r.row}</td>
                <td>{r.address}</td>
                <td>{r.type}</td>
                <td>{r.occurredLocal.replace('T', ' ')}</td>
                <td>{r.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}

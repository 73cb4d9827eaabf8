/**
 * The printable report of a PDF export (`#/report?job=ID`): the host opens this page hidden and
 * prints it. It asks the engine for the job's figures (getReport) and draws a bulletin an analyst
 * can hand over: the agency and the title, the analyst's notes, the filters in words, the map,
 * counts by type, the trend, the hour × weekday grid, the top repeat locations, the provenance box
 * and, when asked, the hot spot map and the CompStat table (the Analysis view's) and the incidents;
 * every date from the one formatter (src-shared/localTime.ts), page numbers and a running footer as
 * @page margin boxes. In the light palette whatever the system theme; then it sets
 * `body[data-report-ready]` (or `data-report-error`) for the host.
 */
import { useEffect, useMemo, useState } from 'react';
import type { BlotterApi } from '../../src-shared/contract';
import type { ReportModel } from '../../src-shared/exports';
import { MILES_PER_DEGREE_LAT } from '../../src-shared/geo';
import { dayRangeText, dayText, instantText } from '../../src-shared/localTime';
import { createClient, type Client } from '../bridge/client';
import { rangeText } from '../filters/rangeText';
import { HourWeekdayGrid } from '../history/HourWeekdayGrid';
import { TopLocations } from '../history/TopLocations';
import { TrendChart } from '../history/TrendChart';
import { streetAttribution } from '../map/basemap/attribution';
import type { StreetsImage } from '../map/basemap/staticStreets';
import { colourOf } from '../map/palette';
import { CompStatTable } from '../analysis/CompStatTable';
import { count } from '../text/count';
import { errorText } from '../text/errorText';
import { IncidentList } from './IncidentList';
import { Provenance } from './Provenance';
import { HotSpotMap } from './HotSpotMap';
import { footerCss, reportFilterWords } from './reportText';
import { mapBox, projection, STATIC_MAP_SIZE, StaticMap } from './StaticMap';
import styles from './report.module.css';

/** Fits the printable width of A4 and Letter (182 mm ≈ 688 px). */
const CHART = { width: 660, height: 280 };

export function ReportPage({ api, jobId }: { api: BlotterApi; jobId: string }) {
  const client = useMemo(() => createClient(api), [api]);
  const [model, setModel] = useState<ReportModel | null>(null);
  const [error, setError] = useState<string | null>(null);
  // undefined while the streets are being drawn; null when there are none.
  const [streets, setStreets] = useState<StreetsImage | null | undefined>(undefined);

  useEffect(() => {
    client.call('getReport', { jobId }).then(setModel, (failure: unknown) => {
      const text = errorText(failure);
      setError(text);
      document.body.dataset.reportError = text;
    });
  }, [client, jobId]);

  useEffect(() => {
    if (!model) return;
    let cancelled = false;
    void reportStreets(client, model).then((image) => !cancelled && setStreets(image));
    return () => {
      cancelled = true;
    };
  }, [client, model]);

  // Runs after the sections' own effects (the chart draws without animation in its effect).
  useEffect(() => {
    if (!model || streets === undefined) return;
    document.title = `${model.title} — Blotter`;
    // The hosts print only a page marked as this job's report (src-main/web/reportReadiness.ts).
    document.body.dataset.reportJob = jobId;
    document.body.dataset.reportReady = 'true';
  }, [model, jobId, streets]);

  if (error) return <p className={styles.message}>{error}</p>;
  if (!model) return <p className={styles.message}>Preparing the report…</p>;
  return <ReportDocument model={model} streets={streets ?? null} />;
}

/** The streets under the report's map when a vector basemap covers it; null otherwise (never fails). */
async function reportStreets(client: Client, model: ReportModel): Promise<StreetsImage | null> {
  const box = mapBox(model.map);
  if (!box) return null;
  try {
    const info = await client.call('getBasemapInfo', {});
    const p = projection(box);
    // Loaded only when a report is printed: protomaps-leaflet stays out of the report's first chunk.
    const { drawStreets } = await import('../map/basemap/staticStreets');
    const href = await Promise.race([
      drawStreets(client, info, box, {
        ...STATIC_MAP_SIZE,
        pxPerDegreeLat: p.pxPerMile * MILES_PER_DEGREE_LAT,
      }),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 15_000)),
    ]);
    return href ? { href, attribution: streetAttribution(info) } : null;
  } catch {
    return null;
  }
}

/** The report for a model: one flowing document, kept whole box by box. */
export function ReportDocument({
  model: m,
  streets = null,
}: {
  model: ReportModel;
  streets?: StreetsImage | null;
}) {
  const range = m.range.from && m.range.to ? dayRangeText(m.range.from, m.range.to) : rangeText(m.range);
  return (
    <article className={styles.report} data-testid="report">
      <style>{footerCss(m)}</style>
      <header className={styles.header}>
        {m.agency ? (
          <p className={styles.agency} data-testid="report-agency">
            {m.agency}
          </p>
        ) : null}
        <h1>{m.title}</h1>
        <p className={styles.meta}>
          {range} · {count(m.total)} incidents · prepared {instantText(m.createdAt)} with Blotter {m.version}
        </p>
      </header>
      {m.notes ? (
        <section className={styles.box} data-testid="report-notes">
          <h2>Analyst’s notes</h2>
          <p className={styles.notes}>{m.notes}</p>
        </section>
      ) : null}
      <section className={styles.box}>
        <h2>Filters</h2>
        <ul>
          {reportFilterWords(m).map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      </section>
      <h2>Map</h2>
      <StaticMapFigure model={m} streets={streets} />
      {m.analyses.hotSpots ? (
        <div className={styles.block}>
          <h2>Hot spots (Getis-Ord Gi*)</h2>
          {'refused' in m.analyses.hotSpots ? (
            <p className="muted" data-testid="report-hotspots-refused">
              {m.analyses.hotSpots.refused}
            </p>
          ) : (
            <HotSpotMap model={m} hotSpots={m.analyses.hotSpots} streets={streets} />
          )}
        </div>
      ) : null}
      <h2>Incidents by type</h2>
      <table className={`data-table ${styles.types}`}>
        <thead>
          <tr>
            <th scope="col">Type</th>
            <th scope="col" className="num">
              Incidents
            </th>
            <th scope="col" className="num">
              Share
            </th>
          </tr>
        </thead>
        <tbody>
          {m.byType.map((t) => (
            <tr key={t.type}>
              <td>
                <span className="type-dot" style={{ background: colourOf(t.type) }} aria-hidden="true" />
                {t.type}
              </td>
              <td className="num">{count(t.count)}</td>
              <td className="num">{m.total ? `${((t.count / m.total) * 100).toFixed(1)} %` : '—'}</td>
            </tr>
          ))}
          <tr className={styles.total}>
            <td>All types</td>
            <td className="num">{count(m.total)}</td>
            <td className="num">100 %</td>
          </tr>
        </tbody>
      </table>
      {m.analyses.compStat ? (
        <section className={styles.compStat}>
          <h2>CompStat</h2>
          {'refused' in m.analyses.compStat ? (
            <p className="muted" data-testid="report-compstat-refused">
              {m.analyses.compStat.refused}
            </p>
          ) : (
            <CompStatTable result={m.analyses.compStat} days={(d) => dayText(d)} periods />
          )}
        </section>
      ) : null}
      <div className={styles.block}>
        <h2>Incidents over time</h2>
        <TrendChart series={m.series} size={CHART} />
      </div>
      <div className={styles.block}>
        <h2>When incidents happen (local time)</h2>
        <HourWeekdayGrid grid={m.grid} />
      </div>
      <h2>Top repeat locations</h2>
      <TopLocations locations={m.top} />
      <Provenance provenance={m.provenance} />
      {m.incidents ? <IncidentList incidents={m.incidents} /> : null}
    </article>
  );
}

function StaticMapFigure({ model, streets }: { model: ReportModel; streets: StreetsImage | null }) {
  return (
    <figure className={styles.map}>
      <StaticMap map={model.map} types={model.series.types} streets={streets} />
      <figcaption className="muted">
        {model.map.shown < model.total
          ? `${count(model.map.shown)} of ${count(model.total)} incidents shown, evenly sampled; `
          : `${count(model.map.shown)} incidents; `}
        outlines are the areas in scope. Positions are block-level.
      </figcaption>
    </figure>
  );
}

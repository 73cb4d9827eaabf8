/**
 * The printable report of a PDF export (`#/report?job=ID`): the host opens this page hidden and
 * prints it. It asks the engine for the job's figures (getReport), draws title, the filters in
 * words, the map, counts by type, the trend, the hour × weekday grid, the top locations and the
 * provenance box on three Letter pages, in the light palette whatever the system theme, and then
 * sets `body[data-report-ready]` (or `data-report-error`) for the host.
 */
import { useEffect, useMemo, useState } from 'react';
import type { BlotterApi } from '../../src-shared/contract';
import type { ReportModel } from '../../src-shared/exports';
import { createClient } from '../bridge/client';
import { rangeText } from '../filters/rangeText';
import { HourWeekdayGrid } from '../history/HourWeekdayGrid';
import { TopLocations } from '../history/TopLocations';
import { TrendChart } from '../history/TrendChart';
import { colourOf } from '../map/palette';
import { count } from '../text/count';
import { errorText } from '../text/errorText';
import { Provenance } from './Provenance';
import { StaticMap } from './StaticMap';
import '../history/history.css';
import './report.css';

const CHART = { width: 700, height: 300 };

export function ReportPage({ api, jobId }: { api: BlotterApi; jobId: string }) {
  const client = useMemo(() => createClient(api), [api]);
  const [model, setModel] = useState<ReportModel | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    client.call('getReport', { jobId }).then(setModel, (failure: unknown) => {
      const text = errorText(failure);
      setError(text);
      document.body.dataset.reportError = text;
    });
  }, [client, jobId]);

  // Runs after the sections' own effects (the chart draws without animation in its effect).
  useEffect(() => {
    if (!model) return;
    document.title = `${model.title} — Blotter`;
    // The hosts print only a page marked as this job's report (src-main/web/reportReadiness.ts).
    document.body.dataset.reportJob = jobId;
    document.body.dataset.reportReady = 'true';
  }, [model, jobId]);

  if (error) return <p className="report-error">{error}</p>;
  if (!model) return <p className="report-loading">Preparing the report…</p>;
  return <ReportDocument model={model} />;
}

/** The report's three pages for a model. */
export function ReportDocument({ model: m }: { model: ReportModel }) {
  const created = new Date(m.createdAt);
  return (
    <article className="report" data-testid="report">
      <section className="report-page">
        <header className="report-header">
          <h1>{m.title}</h1>
          <p>
            {rangeText(m.range)} · {count(m.total)} incidents · created {created.toLocaleString('en-US')} by
            Blotter {m.version}
          </p>
        </header>
        <div className="report-box">
          <h2>Filters</h2>
          <ul>
            {m.filterWords.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </div>
        <h2>Map</h2>
        <StaticMapFigure model={m} />
        <h2>Incidents by type</h2>
        <table className="data-table report-types">
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
            <tr className="report-total">
              <td>All types</td>
              <td className="num">{count(m.total)}</td>
              <td className="num">100 %</td>
            </tr>
          </tbody>
        </table>
      </section>
      <section className="report-page">
        <h2>Incidents over time</h2>
        <TrendChart series={m.series} size={CHART} />
        <h2>When incidents happen (local time)</h2>
        <HourWeekdayGrid grid={m.grid} />
      </section>
      <section className="report-page">
        <h2>Top repeat locations</h2>
        <TopLocations locations={m.top} />
        <Provenance provenance={m.provenance} />
      </section>
    </article>
  );
}

function StaticMapFigure({ model }: { model: ReportModel }) {
  return (
    <figure className="report-map">
      <StaticMap map={model.map} types={model.series.types} />
      <figcaption className="muted">
        {model.map.shown < model.total
          ? `${count(model.map.shown)} of ${count(model.total)} incidents shown, evenly sampled; `
          : `${count(model.map.shown)} incidents; `}
        outlines are the areas in scope. Positions are block-level.
      </figcaption>
    </figure>
  );
}

/**
 * The weekly bulletin (issue 27, item 2): one or two pages for one area or one feature of a layer —
 * the headline the engine wrote from the figures, the map with its streets, labelled areas and a
 * type legend, the 12-week trend (page one), the CompStat table, the top repeat locations by block address and
 * the provenance box that ties every number to the filters and the archive's coverage. Every time
 * in the bulletin's zone with its abbreviation; Letter or A4 as the model says. The analyst's notes,
 * the hot spot map and the incident list when asked.
 */
import { BULLETIN_MIN_INCIDENTS, BULLETIN_NEAR_REPEAT, TREND_WEEKS } from '../../src-shared/bulletin';
import type { ReportModel } from '../../src-shared/exports';
import { dayRangeText, dayText, instantText, zoneAbbreviation } from '../../src-shared/localTime';
import { CompStatTable } from '../analysis/CompStatTable';
import { rangeText } from '../filters/rangeText';
import { TopLocations } from '../history/TopLocations';
import { TrendChart } from '../history/TrendChart';
import type { StreetsImage } from '../map/basemap/staticStreets';
import { count } from '../text/count';
import { Headline } from './Headline';
import { HotSpotMap } from './HotSpotMap';
import { IncidentList } from './IncidentList';
import { Provenance } from './Provenance';
import { footerCss, pageCss, reportFilterWords } from './reportText';
import { StaticMap } from './StaticMap';
import { TypeLegend } from './TypeLegend';
import styles from './report.module.css';

/** Fits the printable width of A4 and Letter (182 mm ≈ 688 px). */
const TREND_CHART = { width: 660, height: 175 };
/** Repeat locations the bulletin lists (the page keeps two). */
const TOP_SHOWN = 5;

export function ReportDocument({
  model: m,
  streets = null,
}: {
  model: ReportModel;
  streets?: StreetsImage | null;
}) {
  const b = m.bulletin;
  const range = m.range.from && m.range.to ? dayRangeText(m.range.from, m.range.to) : rangeText(m.range);
  return (
    <article className={styles.report} data-testid="report" data-paper={b.paper}>
      <style>{`${footerCss(m)}\n${pageCss(b.paper)}`}</style>
      <header className={styles.header}>
        {m.agency ? (
          <p className={styles.agency} data-testid="report-agency">
            {m.agency}
          </p>
        ) : null}
        <h1>{m.title}</h1>
        <p className={styles.meta}>
          {b.place} · {range} · {count(m.total)} incidents · Prepared {instantText(m.createdAt, b.zone)} with
          Blotter {m.version}
        </p>
      </header>
      <Headline bulletin={b} />
      {m.notes ? (
        <section className={styles.box} data-testid="report-notes">
          <h2>Analyst’s notes</h2>
          <p className={styles.notes}>{m.notes}</p>
        </section>
      ) : null}
      <figure className={styles.map}>
        <StaticMap map={m.map} types={m.series.types} streets={streets} labels={b.labels} />
        <TypeLegend byType={m.byType} />
        <figcaption className="muted">
          {m.map.shown < m.total
            ? `${count(m.map.shown)} of ${count(m.total)} incidents shown, evenly sampled; `
            : `${count(m.map.shown)} incidents; `}
          outlines are the areas in scope. Positions are block-level.
        </figcaption>
      </figure>
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
      <div className={styles.block} data-testid="report-trend">
        <h2>{TREND_WEEKS}-week trend (weeks start Monday)</h2>
        <TrendChart series={b.trend} size={TREND_CHART} />
      </div>
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
        <h2>Top repeat locations (block address)</h2>
        <TopLocations locations={m.top.slice(0, TOP_SHOWN)} />
      </div>
      <Provenance
        provenance={m.provenance}
        zone={b.zone}
        filterWords={reportFilterWords(m)}
        methods={methodLines(m)}
      />
      {m.incidents ? <IncidentList incidents={m.incidents} /> : null}
    </article>
  );
}

/** How the bulletin's own figures were made: its zone, its trend's weeks, the headline's analyses. */
export function methodLines(m: ReportModel): string[] {
  const b = m.bulletin;
  const t = b.trend.range;
  const weeks = t.from && t.to ? dayRangeText(t.from, t.to) : '';
  const nr = BULLETIN_NEAR_REPEAT;
  return [
    `Times are local to ${b.zone} (${zoneAbbreviation(b.zone, m.createdAt)} when prepared).`,
    `The trend counts the ${TREND_WEEKS} weeks ${weeks} under the same filters but their dates.`,
    b.tooFew
      ? `Under ${BULLETIN_MIN_INCIDENTS} incidents nothing is compared: the numbers are too few.`
      : `The headline compares the last 7 days with the 7 before (CompStat's table), finds hot spots with Gi* (the Analysis view's defaults) and near repeats with the Knox test (${nr.spaceBands.slice(1).join(' and ')} m, ${nr.timeBandsDays.slice(1).join(' and ')} days, ${nr.iterations} permutations) over the trend's weeks.`,
  ];
}

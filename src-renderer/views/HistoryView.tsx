/**
 * History: trends over everything the local archive holds (which outlives the API's data window),
 * under the shared filters — counts by day, week or month split by type, this period against the
 * previous one and a year earlier, the hour × weekday grid in local time, the top repeat locations
 * and the coverage band. Empty until the archive holds incidents.
 */
import { useState } from 'react';
import { resolveDateRange } from '../../src-shared/filters';
import type { ArchiveSummary, Interval } from '../../src-shared/incidentQueries';
import { intervalFor } from '../../src-shared/intervals';
import { useFilters } from '../filters/FiltersContext';
import { CompareCards } from '../history/CompareCards';
import { CoverageBand } from '../history/CoverageBand';
import { HourWeekdayGrid } from '../history/HourWeekdayGrid';
import { IntervalSwitch } from '../history/IntervalSwitch';
import { DEFAULT_PERIOD_DAYS, todayLocal } from '../history/period';
import { Section } from '../history/Section';
import { TopLocations } from '../history/TopLocations';
import { TrendChart } from '../history/TrendChart';
import { useCall } from '../bridge/useCall';
import { useHistory } from '../history/useHistory';
import { EmptyState } from '../shell/EmptyState';
import { ViewFrame } from '../shell/ViewFrame';
import { useWorkspace } from '../workspace/WorkspaceContext';
import type { DataViewProps } from './viewProps';
import styles from '../history/history.module.css';

const INTRO = 'Trends over the whole local archive, including incidents the API no longer serves.';

export function HistoryView({ setup }: DataViewProps) {
  const { client } = useWorkspace();
  const { filters, dataVersion } = useFilters();
  const summary = useCall<ArchiveSummary>(() => client.call('getArchiveSummary', {}), [client, dataVersion]);
  const [chosen, setChosen] = useState<Interval | null>(null);
  const range = resolveDateRange(filters, todayLocal());
  const interval =
    chosen ??
    intervalFor(range.from ?? summary.data?.firstDay ?? null, range.to ?? summary.data?.lastDay ?? null);
  const history = useHistory(client, filters, interval, dataVersion);
  const empty = summary.data !== null && summary.data.total === 0 && summary.data.removed === 0;
  const known = summary.data !== null || summary.error !== null;

  // One frame in every state, so the focused heading stays the same element while data arrives.
  return (
    <ViewFrame title="History" intro={INTRO}>
      {!known ? (
        <p className="muted">Loading…</p>
      ) : empty ? (
        <HistoryEmptyState setup={setup} />
      ) : (
        <HistorySections history={history} interval={interval} onInterval={setChosen} />
      )}
    </ViewFrame>
  );
}

type SectionsProps = {
  history: ReturnType<typeof useHistory>;
  interval: Interval;
  onInterval: (interval: Interval) => void;
};

export function HistorySections({ history, interval, onInterval }: SectionsProps) {
  return (
    <div className={styles.history}>
      <Section
        title="Incidents over time"
        state={history.series}
        testId="history-trend"
        tools={<IntervalSwitch value={interval} onChange={onInterval} />}
      >
        {(series) => (
          <>
            <TrendChart series={series} />
            {series.buckets.some((b) => b.partial) ? (
              <p className="muted small">
                The first or last bar reaches outside the dates filtered, so it counts only part of its{' '}
                {series.interval}.
              </p>
            ) : null}
          </>
        )}
      </Section>
      <Section title="This period against earlier ones" state={history.compare} testId="history-compare">
        {(result) => (
          <CompareCards
            result={result}
            basis={
              history.period.fromFilter
                ? null
                : `The filters set no date range, so the last ${DEFAULT_PERIOD_DAYS} days are compared.`
            }
          />
        )}
      </Section>
      <div className={styles.pair}>
        <Section title="When incidents happen (local time)" state={history.grid} testId="history-grid">
          {(grid) => <HourWeekdayGrid grid={grid} />}
        </Section>
        <Section title="Top repeat locations" state={history.top} testId="history-top">
          {(top) => <TopLocations locations={top.locations} />}
        </Section>
      </div>
      <Section title="What the archive holds" state={history.coverage} testId="history-coverage">
        {(band) => <CoverageBand band={band} />}
      </Section>
    </div>
  );
}

/** What History says while the archive holds nothing. */
export function HistoryEmptyState({ setup }: DataViewProps) {
  return (
    <EmptyState
      setup={setup}
      title="No history yet"
      text="History charts trends over everything Blotter has kept, including incidents that have left the API's data window. It fills in as your areas sync, or when you import an archive in Export."
      action={{ view: 'areas', label: 'Go to Areas' }}
    />
  );
}

/** The History view while the archive holds nothing (for tests and previews). */
export function HistoryEmpty({ setup }: DataViewProps) {
  return (
    <ViewFrame title="History" intro={INTRO}>
      <HistoryEmptyState setup={setup} />
    </ViewFrame>
  );
}

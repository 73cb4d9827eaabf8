/**
 * Counts by day, week or month, stacked by type in the map legend's colours (a chart.js bar chart
 * on a canvas), with axis titles and units. The colours of text and grid come from the theme and
 * follow a light/dark switch. A caption summarises the series for screen readers.
 */
import { useEffect, useId, useRef } from 'react';
import type { SeriesResult } from '../../src-shared/incidentQueries';
import { legendEntries } from '../map/palette';
import { Chart, themeColours, useColorScheme } from './chartSetup';
import { bucketLabel, seriesSummary, xAxisTitle, yAxisTitle } from './historyText';
import styles from './history.module.css';

export type TrendChartProps = {
  series: SeriesResult;
  /** Fixed size in CSS pixels (the printed report); otherwise the chart fills its box. */
  size?: { width: number; height: number };
};

export function TrendChart({ series, size }: TrendChartProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const scheme = useColorScheme();
  const captionId = useId();

  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    const colours = themeColours(el);
    const multiYear = (series.range.from ?? '').slice(0, 4) !== (series.range.to ?? '').slice(0, 4);
    // The map legend's order: the standard types first, then any other type by count.
    const totals = Object.fromEntries(
      series.types.map((type, t) => [type, series.buckets.reduce((n, b) => n + (b.counts[t] ?? 0), 0)]),
    );
    const datasets = legendEntries(totals, false).map(({ type, colour }) => {
      const t = series.types.indexOf(type);
      return {
        label: type,
        data: series.buckets.map((b) => b.counts[t] ?? 0),
        backgroundColor: colour,
        borderWidth: 0,
        stack: 'types',
      };
    });
    const font = { family: colours.font, size: 12 };
    const axis = (title: string) => ({
      stacked: true,
      title: { display: true, text: title, color: colours.text, font: { ...font, weight: 600 } },
      ticks: { color: colours.muted, font },
      grid: { color: colours.grid },
      border: { color: colours.grid },
    });
    const chart = new Chart(el, {
      type: 'bar',
      data: { labels: series.buckets.map((b) => bucketLabel(b.start, series.interval, multiYear)), datasets },
      options: {
        animation: false,
        responsive: !size,
        maintainAspectRatio: false,
        devicePixelRatio: size ? 2 : undefined,
        interaction: { mode: 'index', intersect: false },
        scales: {
          x: {
            ...axis(xAxisTitle(series.interval)),
            ticks: { ...axis('').ticks, maxRotation: 0, autoSkipPadding: 12 },
          },
          y: {
            ...axis(yAxisTitle(series.interval)),
            beginAtZero: true,
            ticks: { ...axis('').ticks, precision: 0 },
          },
        },
        plugins: {
          legend: { position: 'bottom', labels: { color: colours.text, font, boxWidth: 12 } },
          tooltip: { enabled: !size },
        },
      },
    });
    return () => chart.destroy();
  }, [series, size, scheme]);

  return (
    <figure className={styles.trendChart}>
      <div
        className={styles.trendCanvas}
        style={size ? { width: size.width, height: size.height } : undefined}
      >
        <canvas
          ref={canvas}
          role="img"
          aria-labelledby={captionId}
          width={size?.width}
          height={size?.height}
          data-testid="trend-chart"
          data-x-title={xAxisTitle(series.interval)}
          data-y-title={yAxisTitle(series.interval)}
          data-buckets={series.buckets.length}
        />
      </div>
      <figcaption id={captionId} className="visually-hidden">
        {`${yAxisTitle(series.interval)}, stacked by type. ${seriesSummary(series)}`}
      </figcaption>
    </figure>
  );
}

/**
 * Time playback on the Map view (issue 15, item 7): a slider over the filtered incidents' days in
 * day or week steps, with play/pause and a step back and forward, the current period in words and
 * its number of incidents. The engine sorts the filter's incidents by day once
 * (getPlaybackPoints, in its worker); a step is then a slice of those columns, drawn by
 * PlaybackLayer alone (clusters and heat are hidden while playback is open), and the legend's "In
 * view" counts the period's incidents per type (`onInView`; null again when playback closes), and
 * its counts and total are the period's too (`onFrame`, issue 26 item 6). A speed control sets how
 * long a period stays on screen while playing (½× to 4×). Each step's time —
 * from the request to the drawn canvas — is kept in `window.__blotterPlayback` for the benchmark.
 */
import type * as L from 'leaflet';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { PlaybackPoints } from '../../../src-shared/analysis';
import type { Filters } from '../../../src-shared/filters';
import type { Client } from '../../bridge/client';
import { useCurrentEffect } from '../../bridge/useCall';
import { count } from '../../text/count';
import { errorText } from '../../text/errorText';
import { coloursFor } from '../palette';
import { PlaybackLayer, type Drawn } from './PlaybackLayer';
import {
  periodAt,
  periodByType,
  periodCount,
  periodText,
  playInterval,
  sliceOf,
  type PlaybackStep,
  type PlaySpeed,
} from './playbackModel';
import { SpeedControl } from './SpeedControl';
import styles from './playback.module.css';

/** The period shown: its incidents per type and in all (the legend's counts while playback is open). */
export type PlaybackFrame = { byType: Record<string, number>; total: number };

declare global {
  interface Window {
    /** For the benchmark: each step's milliseconds from the request to the drawn canvas. */
    __blotterPlayback?: { stepMs: number[] };
  }
}

export function PlaybackControl({
  map,
  client,
  filters,
  dataVersion,
  onInView,
  onFrame,
}: {
  map: L.Map | null;
  client: Client;
  filters: Filters;
  dataVersion: number;
  /** Per type, the period's incidents in the map's view after each draw; null when playback closes. */
  onInView?: (byType: Record<string, number> | null) => void;
  /** The period shown, after each step; null when playback closes. */
  onFrame?: (frame: PlaybackFrame | null) => void;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [points, setPoints] = useState<PlaybackPoints | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [step, setStep] = useState<PlaybackStep>('week');
  const [index, setIndex] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<PlaySpeed>(1);
  const [inView, setInView] = useState<number | null>(null);
  const asked = useRef(0);
  const key = JSON.stringify(filters);

  const onDrawn = useCallback(
    (d: Drawn) => {
      setInView(d.drawn);
      onInView?.(d.inView);
      if (asked.current) {
        (window.__blotterPlayback ??= { stepMs: [] }).stepMs.push(performance.now() - asked.current);
        asked.current = 0;
      }
    },
    [onInView],
  );
  const onDrawnRef = useRef(onDrawn);
  onDrawnRef.current = onDrawn;
  const onInViewRef = useRef(onInView);
  onInViewRef.current = onInView;
  const onFrameRef = useRef(onFrame);
  onFrameRef.current = onFrame;
  const layer = useMemo(() => new PlaybackLayer((d) => onDrawnRef.current(d)), []);

  // The day-sorted incidents of the filters, asked for while playback is open.
  useCurrentEffect(
    (current) => {
      if (!open) return;
      setError(null);
      client.call('getPlaybackPoints', { filters: JSON.parse(key) as Filters }).then(
        (p) => {
          if (!current()) return;
          layer.setPoints(p, coloursFor(p.types));
          setPoints(p);
          setIndex(0);
        },
        (failure: unknown) => current() && setError(errorText(failure)),
      );
    },
    [open, client, key, dataVersion, layer],
  );

  useEffect(() => {
    if (!open || !map) return;
    layer.addTo(map);
    return () => {
      layer.remove();
    };
  }, [open, map, layer]);

  // Closed (or gone): the legend counts the map's own layers again.
  useEffect(() => {
    if (!open) return;
    return () => {
      onInViewRef.current?.(null);
      onFrameRef.current?.(null);
    };
  }, [open]);

  const periods = points ? periodCount(points, step) : 0;
  const period = points ? periodAt(points, step, Math.min(index, Math.max(0, periods - 1))) : null;
  const [begin, end] = points && period ? sliceOf(points, period) : [0, 0];
  useEffect(() => {
    if (!open || !points) return;
    layer.show(begin, end);
    onFrameRef.current?.({ byType: periodByType(points, begin, end), total: end - begin });
  }, [open, points, begin, end, layer]);

  const go = useCallback(
    (next: number) => {
      asked.current = performance.now();
      setIndex(Math.max(0, Math.min(periods - 1, next)));
    },
    [periods],
  );

  // Playing: one step per interval, stopping at the last period.
  useEffect(() => {
    if (!playing) return;
    if (index >= periods - 1) {
      setPlaying(false);
      return;
    }
    const timer = setTimeout(() => go(index + 1), playInterval(speed));
    return () => clearTimeout(timer);
  }, [playing, index, periods, go, speed]);

  if (!open)
    return (
      <button type="button" className={styles.opener} onClick={() => setOpen(true)}>
        Time playback
      </button>
    );

  const label = period ? periodText(period, step) : points ? 'No incidents match the filters' : 'Loading…';
  return (
    <section
      className={styles.playback}
      aria-label="Time playback"
      data-testid="playback"
      data-from={period?.from ?? ''}
      data-to={period?.to ?? ''}
      data-count={end - begin}
      data-drawn={inView ?? ''}
      data-index={index}
      data-playing={playing}
      data-speed={speed}
    >
      <div className={styles.row}>
        <div className="segmented" role="group" aria-label="Step">
          {(['day', 'week'] as const).map((s) => (
            <button
              key={s}
              type="button"
              aria-pressed={step === s}
              onClick={() => {
                setStep(s);
                setIndex(0);
              }}
            >
              {s === 'day' ? 'Day' : 'Week'}
            </button>
          ))}
        </div>
        <button type="button" onClick={() => go(index - 1)} disabled={!period || index === 0}>
          ◀ Step back
        </button>
        <button
          type="button"
          onClick={() => setPlaying((p) => !p)}
          disabled={periods < 2}
          aria-pressed={playing}
        >
          {playing ? '❚❚ Pause' : '▶ Play'}
        </button>
        <button type="button" onClick={() => go(index + 1)} disabled={!period || index >= periods - 1}>
          Step forward ▶
        </button>
        <SpeedControl speed={speed} onChange={setSpeed} />
        <button
          type="button"
          className={styles.close}
          onClick={() => {
            setPlaying(false);
            setOpen(false);
            setPoints(null);
          }}
          aria-label="Close time playback"
        >
          ×
        </button>
      </div>
      <label className={styles.slider} htmlFor={`${id}-period`}>
        <span className="visually-hidden">Period</span>
        <input
          id={`${id}-period`}
          type="range"
          min={0}
          max={Math.max(0, periods - 1)}
          value={Math.min(index, Math.max(0, periods - 1))}
          disabled={periods < 2}
          onChange={(e) => go(Number(e.target.value))}
        />
      </label>
      <p className={styles.period} role="status">
        <strong data-testid="playback-period">{label}</strong>{' '}
        {period ? (
          <span className="muted" data-testid="playback-count">
            {count(end - begin)} incidents
            {inView !== null && inView < end - begin ? ` (${count(inView)} in view)` : ''}
          </span>
        ) : null}
      </p>
      {error ? (
        <p role="alert" className={styles.error}>
          {error}
        </p>
      ) : null}
    </section>
  );
}

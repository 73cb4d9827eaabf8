/**
 * Time playback, open: the filters' incidents sorted by day (asked once per filters and archive),
 * the step buttons, play/pause, the slider, the period in words with its count, and the drawing
 * (PlaybackLayer) with the legend's counts (`onInView`, `onFrame`; null again when it closes).
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { PlaybackPoints } from '../../../src-shared/analysis';
import type { Filters } from '../../../src-shared/filters';
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
import { PlaybackButtons } from './PlaybackButtons';
import type { PlaybackProps } from './PlaybackControl';
import styles from './playback.module.css';

export function PlaybackPanel({
  map,
  client,
  filters,
  dataVersion,
  onInView,
  onFrame,
  step,
  setStep,
  speed,
  setSpeed,
  onClose,
}: PlaybackProps & {
  step: PlaybackStep;
  setStep: (step: PlaybackStep) => void;
  speed: PlaySpeed;
  setSpeed: (speed: PlaySpeed) => void;
  onClose: () => void;
}) {
  const id = useId();
  const [points, setPoints] = useState<PlaybackPoints | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [index, setIndex] = useState(0);
  const [playing, setPlaying] = useState(false);
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
    [client, key, dataVersion, layer],
  );

  useEffect(() => {
    if (!map) return;
    layer.addTo(map);
    return () => {
      layer.remove();
    };
  }, [map, layer]);

  // Closed (or gone): the legend counts the map's own layers again.
  useEffect(
    () => () => {
      onInViewRef.current?.(null);
      onFrameRef.current?.(null);
    },
    [],
  );

  const periods = points ? periodCount(points, step) : 0;
  const period = points ? periodAt(points, step, Math.min(index, Math.max(0, periods - 1))) : null;
  const [begin, end] = points && period ? sliceOf(points, period) : [0, 0];
  useEffect(() => {
    if (!points) return;
    layer.show(begin, end);
    onFrameRef.current?.({ byType: periodByType(points, begin, end), total: end - begin });
  }, [points, begin, end, layer]);

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
      <PlaybackButtons
        step={step}
        onStep={(next) => {
          setStep(next);
          setIndex(0);
        }}
        canBack={!!period && index > 0}
        canForward={!!period && index < periods - 1}
        onBack={() => go(index - 1)}
        onForward={() => go(index + 1)}
        playing={playing}
        canPlay={periods >= 2}
        onPlay={() => setPlaying((p) => !p)}
        speed={speed}
        setSpeed={setSpeed}
        onClose={onClose}
      />
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

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
import { useState } from 'react';
import type { Filters } from '../../../src-shared/filters';
import type { Client } from '../../bridge/client';
import { PlaybackPanel } from './PlaybackPanel';
import type { PlaybackStep, PlaySpeed } from './playbackModel';
import styles from './playback.module.css';

/** The period shown: its incidents per type and in all (the legend's counts while playback is open). */
export type PlaybackFrame = { byType: Record<string, number>; total: number };

declare global {
  interface Window {
    /** For the benchmark: each step's milliseconds from the request to the drawn canvas. */
    __blotterPlayback?: { stepMs: number[] };
  }
}

export type PlaybackProps = {
  map: L.Map | null;
  client: Client;
  filters: Filters;
  dataVersion: number;
  /** Per type, the period's incidents in the map's view after each draw; null when playback closes. */
  onInView?: (byType: Record<string, number> | null) => void;
  /** The period shown, after each step; null when playback closes. */
  onFrame?: (frame: PlaybackFrame | null) => void;
};

/** "Time playback" opens the panel; its step and speed are kept while it is closed. */
export function PlaybackControl(props: PlaybackProps) {
  const [open, setOpen] = useState(false);
  const [step, setStep] = useState<PlaybackStep>('week');
  const [speed, setSpeed] = useState<PlaySpeed>(1);
  if (!open)
    return (
      <button type="button" className={styles.opener} onClick={() => setOpen(true)}>
        Time playback
      </button>
    );
  return (
    <PlaybackPanel
      {...props}
      step={step}
      setStep={setStep}
      speed={speed}
      setSpeed={setSpeed}
      onClose={() => setOpen(false)}
    />
  );
}

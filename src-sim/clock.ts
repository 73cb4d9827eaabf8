/** The simulator's clock: the real clock (optionally shifted to start at a given instant) or a manual one. */
export type ClockMode = 'real' | 'manual';

export interface SimClock {
  readonly mode: ClockMode;
  now(): Date;
  nowMs(): number;
  /** Jumps to an instant (both modes; a real clock keeps running from there). */
  set(at: Date | string | number): void;
  advance(ms: number): void;
}

export function toMs(at: Date | string | number): number {
  const ms = at instanceof Date ? at.getTime() : typeof at === 'number' ? at : Date.parse(at);
  if (!Number.isFinite(ms)) throw new RangeError(`not a valid instant: ${String(at)}`);
  return ms;
}

export function makeClock(mode: ClockMode, start?: Date | string | number): SimClock {
  let offset = start === undefined ? 0 : toMs(start) - Date.now();
  let fixed = start === undefined ? Date.now() : toMs(start);
  const nowMs = (): number => (mode === 'manual' ? fixed : Date.now() + offset);
  return {
    mode,
    nowMs,
    now: () => new Date(nowMs()),
    set(at) {
      if (mode === 'manual') fixed = toMs(at);
      else offset = toMs(at) - Date.now();
    },
    advance(ms) {
      if (!Number.isFinite(ms)) throw new RangeError('advance needs a finite number of ms');
      if (mode === 'manual') fixed += ms;
      else offset += ms;
    },
  };
}

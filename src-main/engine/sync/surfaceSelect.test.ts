import { describe, expect, it } from 'vitest';
import { blankProfile, PROBE_EVERY_MS, type ServerProfile } from './serverProfile';
import { chooseSurface, SURFACE_GONE } from './surfaceSelect';

const NOW = 1_800_000_000_000;
const probed = (state: 'verified' | 'absent', at = NOW - 1000): ServerProfile => ({
  ...blankProfile('https://x.test'),
  surface: { baseUrl: 'https://x.test', probedAt: at, state, reason: state, history: null },
});
const choose = (o: Partial<Parameters<typeof chooseSurface>[0]>) =>
  chooseSurface({
    history: false,
    resuming: null,
    profile: blankProfile('https://x.test'),
    now: NOW,
    deferProbe: false,
    ...o,
  });

describe('chooseSurface: a decision, nothing more', () => {
  it('probes a server never probed, or waits for the first page when the probe is deferred', () => {
    expect(choose({})).toEqual({ kind: 'probe' });
    expect(choose({ deferProbe: true })).toEqual({ kind: 'use', surface: 'live' });
  });
  it('uses v1 once verified, live when absent, and probes again a day later', () => {
    expect(choose({ profile: probed('verified') })).toEqual({ kind: 'use', surface: 'v1' });
    expect(choose({ profile: probed('absent') })).toEqual({ kind: 'use', surface: 'live' });
    expect(choose({ profile: probed('absent', NOW - PROBE_EVERY_MS) })).toEqual({ kind: 'probe' });
  });
  it('finishes a run in progress on its surface, and abandons a v1 run whose surface has gone', () => {
    expect(choose({ resuming: 'live', profile: probed('verified') })).toEqual({
      kind: 'use',
      surface: 'live',
    });
    expect(choose({ resuming: 'v1', profile: probed('verified') })).toEqual({ kind: 'use', surface: 'v1' });
    expect(choose({ resuming: 'v1', profile: probed('absent') })).toEqual({
      kind: 'use',
      surface: 'live',
      abandon: SURFACE_GONE,
    });
    expect(choose({ resuming: 'v1-history', profile: probed('absent', 0) })).toEqual({
      kind: 'probe',
      abandon: SURFACE_GONE,
    });
  });
  it('sends the history backfill to v1 history', () => {
    expect(choose({ history: true })).toEqual({ kind: 'use', surface: 'v1-history' });
  });
});

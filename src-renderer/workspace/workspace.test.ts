import { describe, expect, it } from 'vitest';
import { activeRuns, activityReducer, initialActivity, type Activity, type SyncProgress } from './activity';
import { lastOutcome, latestFailure, linkStatus, syncSummary } from './statusLine';

const p = (over: Partial<SyncProgress>): SyncProgress => ({
  type: 'syncProgress',
  areaId: 1,
  runId: 1,
  kind: 'backfill',
  state: 'running',
  planned: 9,
  done: 0,
  new: 0,
  updated: 0,
  removed: 0,
  etaSeconds: 10,
  ...over,
});

const feed = (events: SyncProgress[], start: Activity = initialActivity) =>
  events.reduce((s, event) => activityReducer(s, { type: 'event', event }), start);

describe('sync activity', () => {
  it('keeps the latest progress per area and knows which runs are under way', () => {
    const s = feed([p({ areaId: 1 }), p({ areaId: 2, state: 'done' }), p({ areaId: 1, done: 3 })]);
    expect(s.progress.get(1)?.done).toBe(3);
    expect(activeRuns(s.progress).map((r) => r.areaId)).toEqual([1]);
  });

  it('moves the data version on incidentsChanged only, never on progress counters', () => {
    // A run that wrote rows: the counters move, the data version waits for the engine's word.
    let s = feed([p({ new: 10, done: 1 }), p({ new: 20, done: 9, state: 'done' })]);
    expect(s.dataVersion).toBe(0);
    s = activityReducer(s, { type: 'event', event: { type: 'incidentsChanged', areaId: 1 } });
    expect(s.dataVersion).toBe(1);
    s = activityReducer(s, { type: 'event', event: { type: 'incidentsChanged' } });
    expect(s.dataVersion).toBe(2);
    expect(s.progress.get(1)?.new).toBe(20);
  });
});

describe('the link to the API', () => {
  it('starts unknown, goes offline when a sync cannot reach the API, online when a request is done', () => {
    expect(linkStatus(initialActivity.link)).toEqual({ state: 'unknown', text: 'Network: not checked yet' });
    let s = feed([p({ state: 'offline', message: 'Cannot reach the service (ECONNREFUSED).' })]);
    expect(linkStatus(s.link)).toEqual({
      state: 'offline',
      text: 'Offline — showing the local archive',
      detail: 'Cannot reach the service (ECONNREFUSED).',
    });
    // A retry that is only scheduled says nothing about the network.
    s = feed([p({ state: 'running' }), p({ state: 'paused' })], s);
    expect(s.link.online).toBe(false);
    s = feed([p({ done: 1 })], s);
    expect(s.link.online).toBe(true);
  });

  it('follows connectivity events and calls that failed for want of a network', () => {
    let s = activityReducer(initialActivity, {
      type: 'callResult',
      ok: false,
      code: 'offline',
      message: 'No route',
    });
    expect(s.link).toEqual({ online: false, message: 'No route' });
    s = activityReducer(s, { type: 'callResult', ok: false, code: 'not_found' });
    expect(s.link.online).toBe(false);
    s = activityReducer(s, { type: 'callResult', ok: true });
    expect(s.link).toEqual({ online: true });
    s = activityReducer(s, {
      type: 'event',
      event: { type: 'connectivity', online: false, message: 'Wi-Fi off' },
    });
    expect(s.link).toEqual({ online: false, message: 'Wi-Fi off' });
  });
});

describe('the status line', () => {
  const names = new Map([
    [1, 'Denver'],
    [2, 'Midtown'],
  ]);

  it('sums up one sync, several, and a wait counted down', () => {
    const one = feed([p({ done: 4, etaSeconds: 30 })]).progress;
    expect(syncSummary(one, names, 0)).toBe('Syncing Denver · 4 of 9 requests · about 30 s left');
    const two = feed([p({ done: 4 }), p({ areaId: 2, runId: 2, done: 1, planned: 3 })]).progress;
    expect(syncSummary(two, names, 0)).toBe('Syncing 2 areas · 5 of 12 requests');
    const waiting = feed([
      p({ state: 'waiting-rate', retryAt: 12_000, message: 'the server asked us to slow down' }),
    ]).progress;
    expect(syncSummary(waiting, names, 0)).toBe('Waiting 12 s — the API asked us to slow down');
    expect(syncSummary(feed([p({ state: 'done' })]).progress, names, 0)).toBeNull();
    const queued = feed([p({ state: 'planning', message: 'Waiting for the import to be saved' })]).progress;
    expect(syncSummary(queued, names, 0)).toMatch(/^Denver: waiting for the import to be saved · /);
  });

  it('names the last outcome and the latest failure with what to do', () => {
    const done = feed([p({ state: 'done', new: 280 })]).progress;
    expect(lastOutcome(done, names)).toBe('Denver synced: 280 new, 0 updated, 0 removed');
    const failed = feed([
      p({ state: 'failed', error: { code: 'ip_not_allowed', message: 'raw 403 words' } }),
    ]).progress;
    const failure = latestFailure(failed, names);
    expect(failure?.area).toBe('Denver');
    expect(failure?.problem.problem).toMatch(/public IP address \(403\)/);
    expect(failure?.problem.action).toMatch(/register your office's static IP/);
    const unauthorized = latestFailure(
      feed([p({ state: 'failed', error: { code: 'unauthorized', message: '' } })]).progress,
      names,
    );
    expect(unauthorized?.problem).toMatchObject({
      action: 'Re-enter the API key in Settings.',
      settings: true,
    });
  });
});

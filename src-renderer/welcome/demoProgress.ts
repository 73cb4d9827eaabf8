/**
 * What the demo banner says about the demo area's sync, from its latest progress event (live) or,
 * before any event reached this page, from the area's last run. `state` is also the banner's
 * `data-demo-sync` attribute, which e2e waits on.
 */
import type { EngineEvent } from '../../src-shared/contract';
import type { AreaView } from '../../src-shared/sync';
import { count } from '../text/count';

type Progress = Extract<EngineEvent, { type: 'syncProgress' }>;

export type DemoSync = { state: 'syncing' | 'done' | 'failed' | 'idle'; text: string };

export function demoSync(progress: Progress | undefined, area: AreaView | undefined): DemoSync {
  if (progress) {
    if (progress.state === 'done') return done();
    if (progress.state === 'failed') return failed(progress.error?.message ?? progress.message);
    if (progress.state === 'paused') return { state: 'idle', text: 'The demo sync is paused.' };
    const of = progress.planned > 0 ? ` of about ${count(progress.planned)}` : '';
    return {
      state: 'syncing',
      text: `Syncing the demo area through the normal engine: ${count(progress.done)}${of} requests, ${count(progress.new)} incidents so far.`,
    };
  }
  if (!area) return { state: 'idle', text: '' };
  if (area.syncing || area.lastRun?.state === 'running') {
    return { state: 'syncing', text: 'Syncing the demo area through the normal engine…' };
  }
  if (area.lastRun?.state === 'done') return done();
  if (area.lastRun?.state === 'failed') return failed(area.lastRun.error ?? undefined);
  return { state: 'idle', text: '' };
}

function done(): DemoSync {
  return { state: 'done', text: 'The demo area is synced. Explore the Map, Table, History and Export.' };
}

function failed(why: string | undefined): DemoSync {
  return { state: 'failed', text: `The demo sync failed${why ? `: ${why}` : '.'}` };
}

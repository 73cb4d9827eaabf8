import { expect, test } from 'vitest';
import type { EngineEvent } from '../../../src-shared/contract';
import { PROGRESS_EVERY_MS, pullProgress } from './pullProgress';

test('a pull says how far it got at most every PROGRESS_EVERY_MS, and always its end', () => {
  const events: EngineEvent[] = [];
  let clock = 1_000;
  const p = pullProgress(
    (e) => events.push(e),
    () => clock,
  );
  p.running(1_000, 5_000); // the first is sent at once
  clock += PROGRESS_EVERY_MS - 1;
  p.running(2_000, 5_000); // too soon
  clock += 1;
  p.running(3_000, 5_000);
  clock += 10;
  p.running(4_000, 5_000); // too soon: the end carries it
  p.end('cancelled');
  expect(events).toEqual([
    { type: 'officePullProgress', state: 'running', rows: 1_000, total: 5_000 },
    { type: 'officePullProgress', state: 'running', rows: 3_000, total: 5_000 },
    { type: 'officePullProgress', state: 'cancelled', rows: 4_000, total: 5_000 },
  ]);
});

test('a pull that ends before any progress says so with no total', () => {
  const events: EngineEvent[] = [];
  pullProgress((e) => events.push(e)).end('failed');
  expect(events).toEqual([{ type: 'officePullProgress', state: 'failed', rows: 0, total: null }]);
});

/**
 * The provenance of an export, a report or an analysis reads each area's coverage band (the
 * archive's days and the area's ledger: ~10–20 ms an area at 1M incidents) with a turn of the
 * engine's event loop between areas (issue 31), so a call asked meanwhile is answered before the
 * provenance is done; the figures are those of the areas' bands.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSettingsRepo } from '../store/settingsRepo';
import { incidentCalls } from '../query/index';
import { closeFixture, openFixture, type Fixture } from '../query/testFixtures';
import { areasInScope, provenanceOf } from './provenance';

let f: Fixture;
beforeAll(() => {
  f = openFixture();
});
afterAll(() => closeFixture(f));

describe('provenanceOf', () => {
  it('turns the event loop between areas: a call asked meanwhile answers first', async () => {
    const ctx = { db: f.db, settings: createSettingsRepo(f.db) };
    const areas = areasInScope(ctx, {}, null);
    expect(areas.length).toBeGreaterThan(1);
    const order: string[] = [];
    let turns = 0;
    let running = true;
    const turn = (): void => {
      turns++;
      if (running) setImmediate(turn);
    };
    setImmediate(() => order.push('call'));
    setImmediate(turn);
    const range = { from: '2024-06-01', to: '2025-03-14' };
    const provenance = await provenanceOf(ctx, f.service, {}, range, null);
    running = false;
    order.push('provenance');
    expect(order).toEqual(['call', 'provenance']);
    expect(turns).toBeGreaterThanOrEqual(areas.length);
    // The figures are each area's band over the range.
    for (const a of provenance.areas) {
      const band = await incidentCalls.coverageBand(f.service, { areaId: a.id, ...range });
      expect(a.missingDays).toBe(band.totals.missing);
      expect(a.provisionalDays).toBe(band.totals.provisional);
    }
  });
});

import { describe, expect, it } from 'vitest';
import type { Filters } from '../../src-shared/filters';
import type { CountResult } from '../../src-shared/incidentQueries';
import type { Client } from '../bridge/client';
import { countsFor, legendCountsOf } from './countsCall';
import { totalOf } from './filterModel';

/** A small archive and a client that counts it as the engine does: by the filters' types and area. */
const ARCHIVE = [
  { type: 'Theft', area: 1 },
  { type: 'Theft', area: 1 },
  { type: 'Assault', area: 1 },
  { type: 'Burglary', area: 2 },
  { type: 'Theft', area: 2 },
];
function countingClient() {
  const calls: Filters[] = [];
  const client = {
    call: async (name: string, input: { filters: Filters }) => {
      if (name !== 'countIncidents') throw new Error(`unexpected ${name}`);
      calls.push(input.filters);
      const { types, area } = input.filters;
      const byType: Record<string, number> = {};
      for (const i of ARCHIVE) {
        if (types && !types.includes(i.type)) continue;
        if (area && 'areaId' in area && area.areaId !== i.area) continue;
        byType[i.type] = (byType[i.type] ?? 0) + 1;
      }
      const total = Object.values(byType).reduce((a, b) => a + b, 0);
      return { total, byType } as unknown as CountResult;
    },
    onEvent: () => () => undefined,
  } as unknown as Client;
  return { client, calls };
}

describe('the one counts call', () => {
  it('is made once for the filter bar and the legend, and again only when the filters or the archive change', async () => {
    const { client, calls } = countingClient();
    const filters: Filters = { preset: 'all', types: ['Theft'] };
    const bar = countsFor(client, filters, 0);
    const legend = countsFor(client, { ...filters, types: ['Theft', 'Assault'] }, 0);
    expect(legend).toBe(bar);
    await bar;
    expect(calls).toEqual([{ preset: 'all' }]);
    await countsFor(client, filters, 1); // incidentsChanged moved the data version
    await countsFor(client, { ...filters, area: { areaId: 2 } }, 1);
    expect(calls).toHaveLength(3);
  });

  it('gives the legend the same counts as countIncidents with the chosen types', async () => {
    const { client } = countingClient();
    for (const filters of [
      { preset: 'all' },
      { preset: 'all', types: ['Theft'] },
      { preset: 'all', types: ['Theft', 'Burglary'], area: { areaId: 2 } },
      { preset: 'all', types: ['Arson'] },
    ] as Filters[]) {
      const shared = await countsFor(client, filters, 0);
      const direct = await client.call('countIncidents', { filters });
      const legend = legendCountsOf(shared.byType, filters.types);
      expect(legend).toEqual({ byType: direct.byType, total: direct.total });
      // … and the filter bar's total is the legend's.
      expect(totalOf(shared.byType, filters.types)).toBe(legend.total);
    }
  });
});

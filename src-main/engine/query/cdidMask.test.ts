import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListInput } from '../../../src-shared/incidentQueries';
import { incidentCalls } from './calls';
import { closeFixture, openFixture, type Fixture } from './testFixtures';

describe('the filter by incidents (an alert opened on the map)', () => {
  let f: Fixture;
  beforeAll(() => {
    f = openFixture();
  });
  afterAll(() => closeFixture(f));

  it('keeps exactly the named incidents that the other filters keep', async () => {
    const some = f.db
      .prepare<[], { cdid: number; type: string }>(
        'SELECT cdid, type FROM incidents WHERE removed_at IS NULL ORDER BY cdid DESC LIMIT 7',
      )
      .all();
    const cdids = [...some.map((r) => r.cdid), 999_999_999]; // an unknown one is simply not there
    const all = await incidentCalls.countIncidents(f.service, { filters: { cdids, preset: 'all' } });
    expect(all.total).toBe(some.length);

    const type = some[0]!.type;
    const ofType = await incidentCalls.countIncidents(f.service, {
      filters: { cdids, preset: 'all', types: [type] },
    });
    expect(ofType.total).toBe(some.filter((r) => r.type === type).length);

    const page = await incidentCalls.listIncidents(
      f.service,
      ListInput.parse({ filters: { cdids, preset: 'all' }, limit: 50 }),
    );
    expect(new Set(page.rows.map((r) => r.cdid))).toEqual(new Set(some.map((r) => r.cdid)));
  });
});

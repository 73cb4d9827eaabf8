import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { OfficeStatus } from '../../../src-shared/officeCalls';
import { OfficeStatusList } from './OfficeSection';
import { EMPTY_OFFICE_FORM, officeUrlOf } from './officeForm';

describe('the join form', () => {
  it('builds the address without a password or a file, TLS verified by default', () => {
    const form = { ...EMPTY_OFFICE_FORM, host: 'db.office.lan', password: 's3cret' };
    expect(officeUrlOf(form).url).toBe('postgres://blotter@db.office.lan:5432/blotter_office');
    // A private CA's file is the host's to choose: the address the page sends never names one.
    expect(officeUrlOf({ ...form, privateCa: true }).url).toBe(
      'postgres://blotter@db.office.lan:5432/blotter_office',
    );
    expect(officeUrlOf({ ...form, host: '127.0.0.1', tls: 'disable' }).url).toBe(
      'postgres://blotter@127.0.0.1:5432/blotter_office?sslmode=disable',
    );
    expect(officeUrlOf(form).url).not.toContain('s3cret');
  });

  it('names each missing or wrong field', () => {
    const { url, errors } = officeUrlOf({ ...EMPTY_OFFICE_FORM, host: 'me:pw@db', port: '99999', user: '' });
    expect(url).toBeNull();
    expect(Object.keys(errors).sort()).toEqual(['host', 'port', 'user']);
  });
});

const joined: OfficeStatus = {
  joined: true,
  url: 'postgres://blotter@db.office.lan:5432/blotter_office',
  officeId: 'o-1',
  joinedAt: 1_000,
  pulledAt: 50_000,
  reachable: true,
  problem: null,
  schemaVersion: 2,
  officeIncidents: 1_479,
  replicaIncidents: 1_479,
  leader: null,
  holder: 'desk-a:1',
  leaders: [
    { areaId: 1, holder: 'desk-a:1', mine: true, expiresInMs: 21_400 },
    { areaId: 2, holder: 'desk-b:7', mine: false, expiresInMs: 9_000 },
  ],
  requestsLastMinute: 42,
  behind: 0,
};
const names = (id: number) => (id === 1 ? 'Midtown' : 'East');

describe('the office status', () => {
  it('says which areas this desktop leads and for how long, who leads the others, the budget used, the lag and the last pull', () => {
    const html = renderToStaticMarkup(<OfficeStatusList status={joined} areaName={names} now={62_000} />);
    expect(html).toContain('This desktop leads the sync of Midtown (lease for 21 s more).');
    expect(html).toContain('East: synced by desk-b:7 (lease for 9 s more).');
    expect(html).toContain('The office sent 42 API requests in the last minute.');
    expect(html).toContain('The replica is up to date.');
    expect(html).toContain('Last pulled 12 s ago; this replica holds 1479 incidents of the office’s 1479.');
  });

  it('says plainly when PostgreSQL cannot be reached: syncs paused, the replica still works', () => {
    const down = { ...joined, reachable: false, leaders: undefined, officeIncidents: null };
    const html = renderToStaticMarkup(<OfficeStatusList status={down} areaName={names} now={62_000} />);
    expect(html).toContain('PostgreSQL unreachable: syncs paused, working on the replica.');
    expect(html).toContain('class="message message-error"');
    expect(html).toContain('this replica holds 1479 incidents.');
  });

  it('names the office rows the pull skipped as unusable, beside the pull it did not stop', () => {
    const skipped = {
      ...joined,
      skipped: {
        count: 3,
        rows: [
          { table: 'incidents', key: '10051440', problem: 'lat is not a number' },
          { table: 'incidents', key: '10051441', problem: 'hour 99 is not 0–23' },
        ],
      },
    };
    const html = renderToStaticMarkup(<OfficeStatusList status={skipped} areaName={names} now={62_000} />);
    expect(html).toContain(
      '3 office rows were skipped as unusable (the pull took every other row): incidents 10051440: lat is not a number; incidents 10051441: hour 99 is not 0–23; and 1 more.',
    );
    expect(html).toContain('Last pulled 12 s ago');
    const none = renderToStaticMarkup(<OfficeStatusList status={joined} areaName={names} now={62_000} />);
    expect(none).not.toContain('skipped');
  });

  it('says a standalone folder is not joined', () => {
    const html = renderToStaticMarkup(
      <OfficeStatusList status={{ ...joined, joined: false, url: null }} areaName={names} now={0} />,
    );
    expect(html).toContain('standalone archive (not joined to an office)');
  });
});

import { describe, expect, it } from 'vitest';
import type { IncidentDetail } from '../../src-shared/incidentQueries';
import { apiProblem } from '../text/errorText';
import { descriptionView } from './descriptionState';
import { incidentFacts, safeLink } from './incidentFacts';
import { localDateLong, localTimeText, timeFlagText, utcText, zoneAbbreviation } from './timeText';

const detail: IncidentDetail = {
  cdid: 10020795,
  type: 'Burglary',
  address: '100 Block of W Synthetic Redbud St',
  lat: 39.740036,
  lon: -104.990905,
  link: 'https://crime.example.test/incident/10020795',
  dateRaw: '07/04/26 04:05 AM',
  occurredLocal: '2026-07-04T04:05',
  timezone: 'America/Denver',
  occurredUtc: '2026-07-04T10:05:00.000Z',
  timeFlag: null,
  description: null,
  descriptionFetchedAt: null,
  firstSeen: Date.UTC(2026, 10, 22, 0, 5),
  lastSeen: Date.UTC(2026, 10, 22, 0, 5),
  removedAt: null,
  removedReason: null,
  source: 'api',
};

// Times follow the user's locale (src-shared/localTime.ts); the test runner's is en-US (LANG=C.UTF-8).
describe('times in the table and the panel', () => {
  it('shows local wall time with the zone abbreviation at that instant (DST aware)', () => {
    expect(zoneAbbreviation('America/Denver', Date.UTC(2026, 6, 4, 10, 5))).toBe('MDT');
    expect(zoneAbbreviation('America/Denver', Date.UTC(2026, 0, 4, 10, 5))).toBe('MST');
    expect(zoneAbbreviation('America/Phoenix', Date.UTC(2026, 6, 4))).toBe('MST');
    expect(localTimeText('2026-11-01T01:30', 'America/Chicago', Date.UTC(2026, 10, 1, 6, 30))).toBe(
      'Nov 1, 2026, 1:30 AM CDT',
    );
    expect(localTimeText('2026-11-01T01:30', 'America/Chicago', Date.UTC(2026, 10, 1, 7, 30))).toBe(
      'Nov 1, 2026, 1:30 AM CST',
    );
  });

  it('falls back to the zone name for a zone it does not know', () => {
    expect(zoneAbbreviation('Mars/Olympus_Mons', 0)).toBe('Mars/Olympus_Mons');
  });

  it('writes long local dates and UTC instants', () => {
    expect(localDateLong('2026-07-04T04:05')).toBe('Sat, Jul 4, 2026, 4:05 AM');
    expect(utcText('2026-07-04T10:05:00.000Z')).toBe('2026-07-04 10:05 UTC');
  });

  it('explains daylight-saving flags', () => {
    expect(timeFlagText('ambiguous')).toMatch(/happened twice.*first \(earlier\)/);
    expect(timeFlagText('nonexistent')).toMatch(/never happened.*an hour later/);
    expect(timeFlagText(null)).toBeNull();
  });
});

describe('incident panel fields', () => {
  it('lists every field: local time with zone, UTC, the raw string, place, identity and sightings', () => {
    const facts = incidentFacts(detail);
    const byLabel = Object.fromEntries(facts.map((f) => [f.label, f]));
    expect(byLabel['Local time']?.value).toBe('Sat, Jul 4, 2026, 4:05 AM MDT');
    expect(byLabel['Local time']?.hint).toContain('America/Denver');
    expect(byLabel['UTC']?.value).toBe('2026-07-04 10:05 UTC');
    expect(byLabel['As the API wrote it']?.value).toBe('07/04/26 04:05 AM');
    expect(byLabel['Address']).toBeUndefined(); // it heads the panel
    expect(byLabel['Location']?.value).toBe('39.740036, -104.990905');
    expect(byLabel['Incident ID']?.value).toBe('10020795');
    expect(byLabel['First seen']).toBeDefined();
    expect(byLabel['Last seen']).toBeDefined();
    expect(byLabel['Time flag']).toBeUndefined();
    expect(byLabel['Removed']).toBeUndefined();
  });

  it('adds the time flag and the removal with its reason', () => {
    const facts = incidentFacts({
      ...detail,
      timeFlag: 'ambiguous',
      removedAt: Date.UTC(2026, 10, 20),
      removedReason: 'No longer returned by a complete re-query of its tile and day.',
    });
    expect(facts.find((f) => f.label === 'Time flag')?.hint).toMatch(/twice/);
    expect(facts.find((f) => f.label === 'Removed')?.hint).toMatch(/re-query/);
  });

  it('shows an imported incident’s subtype, the category its file gave it; none for the API’s', () => {
    expect(incidentFacts(detail).find((f) => f.label === 'Subtype')).toBeUndefined();
    const facts = incidentFacts({ ...detail, type: 'Theft', subtype: 'Larceny Theft', source: 'import' });
    expect(facts.find((f) => f.label === 'Subtype')).toMatchObject({ value: 'Larceny Theft' });
  });

  it('opens only https permalinks', () => {
    expect(safeLink(detail.link)).toBe(detail.link);
    expect(safeLink('http://crime.example.test/x')).toBeNull();
    expect(safeLink('javascript:alert(1)')).toBeNull();
    expect(safeLink('https://user:pw@example.test/')).toBeNull();
    expect(safeLink('not a url')).toBeNull();
  });
});

describe('the description', () => {
  const idle = { status: 'idle' } as const;
  const now = 1_000_000;

  it('shows a stored description', () => {
    const view = descriptionView(
      { description: 'Witnesses spoke.', descriptionFetchedAt: 5 },
      idle,
      false,
      now,
    );
    expect(view).toEqual({ kind: 'stored', text: 'Witnesses spoke.', fetchedAt: 5 });
  });

  it('offers to fetch it when online or unknown, and says why offline', () => {
    const missing = { description: null, descriptionFetchedAt: null };
    expect(descriptionView(missing, idle, true, now)).toMatchObject({
      kind: 'not-fetched',
      text: 'The description has not been fetched yet.',
      button: 'Fetch description',
    });
    const offline = descriptionView(missing, idle, false, now);
    expect(offline).toMatchObject({ kind: 'not-fetched', button: 'Try anyway' });
    expect(offline.kind === 'not-fetched' && offline.reason).toMatch(/offline/);
  });

  it('shows progress, then says more when the API is slow to answer', () => {
    const missing = { description: null, descriptionFetchedAt: null };
    expect(descriptionView(missing, { status: 'fetching', since: now }, true, now).text).toMatch(/^Fetching/);
    expect(descriptionView(missing, { status: 'fetching', since: now }, true, now + 5_000).text).toMatch(
      /retries/,
    );
  });

  it('after a failure, gives the reason in plain words and a retry', () => {
    const view = descriptionView(
      { description: null, descriptionFetchedAt: null },
      { status: 'failed', problem: apiProblem('offline') },
      false,
      now,
    );
    expect(view).toMatchObject({ kind: 'not-fetched', button: 'Try again' });
    expect(view.kind === 'not-fetched' && view.reason).toMatch(/cannot reach the API/);
  });

  it('says when the API no longer has the incident', () => {
    const view = descriptionView({ description: null, descriptionFetchedAt: 9 }, idle, true, now);
    expect(view.kind).toBe('gone');
  });
});

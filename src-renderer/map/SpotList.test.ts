import { describe, expect, it } from 'vitest';
import type { IncidentDetail } from '../../src-shared/incidentQueries';
import { whenText } from '../incident/incidentFacts';
import { spotRowText } from './SpotList';

const detail = {
  cdid: 7,
  type: 'Theft',
  address: '100 BLOCK OF N MAIN ST',
  lat: 41.88,
  lon: -87.63,
  link: 'https://example.test/7',
  dateRaw: '07/04/26 04:05 AM',
  occurredLocal: '2026-07-04T04:05',
  timezone: 'America/Chicago',
  occurredUtc: '2026-07-04T09:05:00.000Z',
} as IncidentDetail;

describe('a spot list row', () => {
  it('says when (local, with the zone, as the incident panel does) and where', () => {
    const text = spotRowText(detail);
    expect(text?.address).toBe('100 BLOCK OF N MAIN ST');
    expect(text?.when).toBe(whenText(detail));
    expect(text?.when).toMatch(/2026/);
    expect(text?.when).toMatch(/CDT$/);
  });

  it('has nothing to add until the incident is read', () => {
    expect(spotRowText(undefined)).toBeNull();
  });
});

/** Incident rows for office tests and the catch-up bench: plausible, deterministic, varied. */
import { recordOf } from '../store/incidents/apiRecord';
import type { IncidentRow } from '../store/incidents/incidentRow';

const TYPES = ['Theft', 'Burglary', 'Assault', 'Vandalism', 'Robbery', 'Arson'];

export function officeRow(cdid: number, over: Partial<IncidentRow> = {}): IncidentRow {
  const day = 1 + (cdid % 28);
  const record = recordOf({
    cdid,
    type: TYPES[cdid % TYPES.length]!,
    address: `${cdid % 9000} Block of N Oak St`,
    lat: 41.8 + ((cdid * 7919) % 10_000) / 100_000,
    lon: -87.7 + ((cdid * 104_729) % 10_000) / 100_000,
    link: `https://crime.example.test/incident/${cdid}`,
    date: `05/${String(day).padStart(2, '0')}/25 ${String(1 + (cdid % 12)).padStart(2, '0')}:30 ${cdid % 2 ? 'AM' : 'PM'}`,
  });
  return {
    ...record,
    description: cdid % 3 === 0 ? `Report ${cdid}` : null,
    description_fetched_at: cdid % 3 === 0 ? 1_700_000_000_000 : null,
    first_seen: 1_700_000_000_000 + cdid,
    last_seen: 1_700_000_100_000 + cdid,
    removed_at: null,
    removed_reason: null,
    source: 'api',
    subtype: null,
    ...over,
  };
}

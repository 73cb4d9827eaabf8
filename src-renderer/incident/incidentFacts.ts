/**
 * Every stored field of an incident as label/value pairs for the panel's details, formatted for
 * reading (type and address head the panel, so they are not repeated here). Pure.
 */
import type { IncidentDetail } from '../../src-shared/incidentQueries';
import { localDateLong, ownTimeText, timeFlagText, utcText, zoneAbbreviation } from './timeText';

export type Fact = { label: string; value: string; hint?: string; mono?: boolean };

const coord = (n: number): string => n.toFixed(6).replace(/0+$/, '').replace(/\.$/, '');

export function incidentFacts(d: IncidentDetail): Fact[] {
  const utcMs = Date.parse(d.occurredUtc);
  const flag = timeFlagText(d.timeFlag);
  const facts: Fact[] = [
    {
      label: 'Local time',
      value: `${localDateLong(d.occurredLocal)} ${zoneAbbreviation(d.timezone, utcMs)}`,
      hint: `Time zone ${d.timezone}, from the incident's location`,
    },
    { label: 'UTC', value: utcText(d.occurredUtc), mono: true },
    {
      label: 'As the API wrote it',
      value: d.dateRaw,
      hint: 'The raw date string: local time with no zone',
      mono: true,
    },
  ];
  if (flag) facts.push({ label: 'Time flag', value: d.timeFlag ?? '', hint: flag });
  if (d.subtype)
    facts.push({ label: 'Subtype', value: d.subtype, hint: 'The category the imported file gave it' });
  facts.push(
    { label: 'Location', value: `${coord(d.lat)}, ${coord(d.lon)}`, mono: true },
    { label: 'Incident ID', value: String(d.cdid), hint: 'cdid, the API’s detail identifier', mono: true },
    { label: 'First seen', value: ownTimeText(d.firstSeen), hint: 'When Blotter first received it' },
    { label: 'Last seen', value: ownTimeText(d.lastSeen), hint: 'When a sync last found it at the API' },
  );
  if (d.removedAt !== null) {
    facts.push({
      label: 'Removed',
      value: ownTimeText(d.removedAt),
      hint: d.removedReason ?? 'The API no longer returns it; Blotter keeps it in the local archive.',
    });
  }
  facts.push({ label: 'Source', value: d.source });
  return facts;
}

/** Only https permalinks leave the app (the desktop app opens them in the system browser). */
export function safeLink(link: string): string | null {
  try {
    const url = new URL(link);
    return url.protocol === 'https:' && !url.username && !url.password ? url.href : null;
  } catch {
    return null;
  }
}

/** The panel's summary line: "Fri 30 Oct 2026, 01:30 MDT". */
export function whenText(d: IncidentDetail): string {
  return `${localDateLong(d.occurredLocal)} ${zoneAbbreviation(d.timezone, Date.parse(d.occurredUtc))}`;
}

/**
 * What an alert says outside Blotter: a JSON payload (webhooks: `text` for Teams/Slack-style
 * incoming hooks, the rest for programs) and a plain-text email. Incident text from the API is
 * data here, never markup: the email is text/plain, the JSON is JSON.
 */
import type { Db } from '../store/database';

export type AlertPayload = {
  id: string;
  rule: { id: number | null; name: string };
  area: { id: number | null; name: string | null };
  condition: string;
  firedAt: string;
  detail: Record<string, unknown>;
  incidents: {
    cdid: number;
    type: string;
    address: string;
    occurred: string;
    timezone: string;
    lat: number;
    lon: number;
    link: string;
    removed: boolean;
  }[];
  text: string;
};

type AlertRow = {
  uid: string;
  rule_id: number | null;
  rule_name: string;
  area_id: number | null;
  area_name: string | null;
  kind: string;
  cdids: string;
  detail: string;
  fired_at: number;
};

const WHAT: Record<string, string> = {
  any: 'new incidents',
  threshold: 'count reached its threshold',
  spike: 'spike over the 8-week baseline',
  nearRepeat: 'near-repeat',
};

export function alertPayload(db: Db, alertId: number): AlertPayload | null {
  const a = db
    .prepare<[number], AlertRow>(
      `SELECT a.uid, a.rule_id, a.rule_name, a.area_id, ar.name AS area_name, a.kind, a.cdids, a.detail, a.fired_at
       FROM alerts a LEFT JOIN areas ar ON ar.id = a.area_id WHERE a.id = ?`,
    )
    .get(alertId);
  if (!a) return null;
  const cdids = JSON.parse(a.cdids) as number[];
  const incidents = db
    .prepare<
      [string],
      {
        cdid: number;
        type: string;
        address: string;
        occurred_local: string;
        timezone: string;
        lat: number;
        lon: number;
        link: string;
        removed_at: number | null;
      }
    >(
      `SELECT cdid, type, address, occurred_local, timezone, lat, lon, link, removed_at FROM incidents
       WHERE cdid IN (SELECT value FROM json_each(?)) ORDER BY occurred_utc, cdid`,
    )
    .all(JSON.stringify(cdids))
    .map((i) => ({
      cdid: i.cdid,
      type: i.type,
      address: i.address,
      occurred: i.occurred_local,
      timezone: i.timezone,
      lat: i.lat,
      lon: i.lon,
      link: i.link,
      removed: i.removed_at !== null,
    }));
  const where = a.area_name ?? 'an area';
  const text =
    `Blotter alert "${a.rule_name}" (${WHAT[a.kind] ?? a.kind}) in ${where}: ` +
    incidents
      .slice(0, 10)
      .map((i) => `${i.type} at ${i.address} (${i.occurred.replace('T', ' ')})`)
      .join('; ') +
    (incidents.length > 10 ? `; and ${incidents.length - 10} more` : '');
  return {
    id: a.uid,
    rule: { id: a.rule_id, name: a.rule_name },
    area: { id: a.area_id, name: a.area_name },
    condition: a.kind,
    firedAt: new Date(a.fired_at).toISOString(),
    detail: JSON.parse(a.detail) as Record<string, unknown>,
    incidents,
    text,
  };
}

/** The plain-text body of an email for one or more alerts. */
export function emailText(payloads: readonly AlertPayload[]): string {
  const lines: string[] = [];
  for (const p of payloads) {
    lines.push(`${p.rule.name} — ${WHAT[p.condition] ?? p.condition} in ${p.area.name ?? 'an area'}`);
    lines.push(`Alert ${p.id}, ${p.firedAt}`);
    for (const i of p.incidents)
      lines.push(
        `  ${i.type}, ${i.address}, ${i.occurred.replace('T', ' ')} ${i.timezone}${i.removed ? ' (since removed)' : ''}`,
      );
    lines.push('');
  }
  lines.push('Alerts are evaluated while Blotter or a command-line sync runs.');
  return lines.join('\n');
}

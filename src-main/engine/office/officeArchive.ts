/**
 * Writes to the office archive's incidents (a leader's pages, inside its fenced transaction; the
 * tests' arrangements): whole rows, many per statement (arrays unnested), an existing cdid
 * replaced. The trigger gives every written row a new change number.
 */
import type pg from 'pg';
import { ALL_COLUMNS, type IncidentRow } from '../store/incidents/incidentRow';

const PG_TYPES: Record<(typeof ALL_COLUMNS)[number], string> = {
  cdid: 'bigint',
  type: 'text',
  address: 'text',
  lat: 'float8',
  lon: 'float8',
  link: 'text',
  date_raw: 'text',
  occurred_local: 'text',
  timezone: 'text',
  occurred_utc: 'bigint',
  time_flag: 'text',
  local_day: 'text',
  local_hour: 'int',
  local_weekday: 'int',
  description: 'text',
  description_fetched_at: 'bigint',
  first_seen: 'bigint',
  last_seen: 'bigint',
  removed_at: 'bigint',
  removed_reason: 'text',
  source: 'text',
  subtype: 'text',
};

/**
 * A description another desktop kept in the office (descriptionSink.ts) after the writer read its
 * row stays: a leader's page carries whole rows from its replica, which may not have pulled it
 * yet. The later fetch wins (a record's amendment never clears a description: incidentRepo.ts).
 */
const KEEP_NEWER: Partial<Record<string, string>> = {
  description: `CASE WHEN incidents.description_fetched_at > coalesce(EXCLUDED.description_fetched_at, -1)
    THEN incidents.description ELSE EXCLUDED.description END`,
  description_fetched_at: 'GREATEST(incidents.description_fetched_at, EXCLUDED.description_fetched_at)',
};

const cols = ALL_COLUMNS.join(', ');
const UPSERT = `INSERT INTO incidents (${cols})
  SELECT * FROM unnest(${ALL_COLUMNS.map((c, i) => `$${i + 1}::${PG_TYPES[c]}[]`).join(', ')})
  ON CONFLICT (cdid) DO UPDATE SET ${ALL_COLUMNS.filter((c) => c !== 'cdid')
    .map((c) => `${c} = ${KEEP_NEWER[c] ?? `EXCLUDED.${c}`}`)
    .join(', ')}`;

/** Inserts or replaces whole incident rows in the office archive. */
export async function putOfficeIncidents(
  c: pg.ClientBase | pg.Pool,
  rows: readonly IncidentRow[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 10_000) {
    const page = rows.slice(i, i + 10_000);
    await c.query(
      UPSERT,
      ALL_COLUMNS.map((col) => page.map((r) => r[col])),
    );
  }
}

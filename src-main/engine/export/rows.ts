/**
 * One exported incident: the row every export writes, one shape for CSV rows and GeoJSON
 * properties, and the columns in order. The rows come from the export job (the query's match set,
 * batches.ts; the stored columns, storedFormat.ts); there is no second filter here.
 */
import { EXPORT_COLUMN_NAMES } from '../../../src-shared/exports';

export type ExportRow = {
  cdid: number;
  type: string;
  occurred_local: string;
  timezone: string;
  occurred_utc: string;
  date_raw: string;
  address: string;
  lat: number;
  lon: number;
  link: string;
  description: string | null;
  first_seen: string;
  last_seen: string;
  removed: boolean;
  /** The category the source file gave it (an import's own; store migration 017), null for the API's. */
  subtype: string | null;
  /** A mapped import's kept columns as JSON object text (incident_imports), null for API rows. */
  attributes: string | null;
};

/** The export's columns, in order: one list for the engine, the renderer and the tests. */
export const EXPORT_COLUMNS = EXPORT_COLUMN_NAMES satisfies readonly (keyof ExportRow)[];

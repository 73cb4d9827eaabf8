/**
 * Fast queries over the local archive (see README.md): the public face of engine/query.
 *
 * - `incidentCalls.<call>(service, input)`: one function per contract call (handlers/incidents.ts).
 * - `queryServiceFor(db)`: the per-connection service holding the in-memory snapshot.
 * - `notifyIncidentsWritten(db, cdids?)`: writers call this after each transaction that touched
 *   incidents, so the next query sees the change.
 */
export { incidentCalls, type IncidentCallName } from './calls';
export { notifyIncidentsWritten, queryServiceFor, QueryService, type QueryServiceOptions } from './service';
export { toFtsQuery } from './fts';

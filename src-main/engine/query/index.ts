/**
 * Fast queries over the local archive (see README.md): the public face of engine/query.
 *
 * - `incidentCalls.<call>(service, input, reading?)`: one function per contract call
 *   (handlers/incidents.ts asks for `'view'`; anything else gets a result, never from a snapshot
 *   behind the file).
 * - `QueryService`: the service holding the in-memory snapshot; the engine builds one at start
 *   (services.ts) and hands it to handlers, exports and imports as `ctx.services.query`. Writers
 *   through the engine's connection are seen by its TEMP triggers; a writer may still call
 *   `incidentsWritten(cdids?)` to have the next query read them again.
 */
export { incidentCalls, type IncidentCallName } from './calls';
export { QueryService, type QueryServiceOptions, type Reading } from './service';
export { toFtsQuery } from './fts';

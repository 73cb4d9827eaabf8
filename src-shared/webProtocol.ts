/**
 * The wire protocol of the web host: how the contract travels over HTTP on loopback.
 * Shared by src-main/web (server) and the renderer's web bridge (client).
 *
 * - The host prints `http://127.0.0.1:PORT/?token=T`; the first GET with the right token sets an
 *   HttpOnly, SameSite=Strict session cookie and redirects to `/` so the token leaves the address bar.
 * - Calls: POST `callPath(name)` with the JSON input as body; the answer is a JSON `Result`.
 * - Events: GET `EVENTS_PATH` is a text/event-stream of JSON `EngineEvent`s.
 */
import type { CallName } from './contract';

export const TOKEN_PARAM = 'token';
export const SESSION_COOKIE = 'blotter_session';
/** Browsers share cookies across ports, so each host's cookie is named after its port. */
export const sessionCookieName = (port: number): string => `${SESSION_COOKIE}_${port}`;
export const CALL_PREFIX = '/api/call/';
export const EVENTS_PATH = '/api/events';

export const callPath = (name: CallName): string => `${CALL_PREFIX}${name}`;

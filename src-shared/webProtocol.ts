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

/** Exports written by the web host (into the data folder's exports/) are fetched from here, by file name. */
export const DOWNLOAD_PREFIX = '/api/download/';
export const downloadPath = (fileName: string): string => `${DOWNLOAD_PREFIX}${encodeURIComponent(fileName)}`;
/**
 * Files to import reach the web host as the body of a POST here (application/octet-stream, the
 * file's name in UPLOAD_NAME_HEADER, URI-encoded); the answer is a JSON Result holding the upload id.
 */
export const UPLOAD_PATH = '/api/upload';
export const UPLOAD_NAME_HEADER = 'X-Blotter-File-Name';
// Headless Chromium printing a report holds a print grant for that one job, as a cookie set over
// the DevTools pipe (src-main/web/printAccess.ts): never a URL parameter, never a session.

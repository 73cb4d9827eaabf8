/**
 * The web host's access control: a random token per launch, the session cookie it buys (a value of
 * its own, never the token: a token seen on a terminal or in a history is not a cookie), and the
 * Host/Origin checks that keep other sites (DNS rebinding, cross-site requests) away from the API.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { sessionCookieName } from '../../src-shared/webProtocol';

/** 32 random bytes, base64url: a launch token, a session secret, a print grant. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** Constant-time comparison (hashing first hides the length too). */
export function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * The cookie that carries the session: its own random secret (not the launch token), HttpOnly (no
 * script reads it), SameSite=Strict, whole site.
 */
export const sessionCookie = (secret: string, port: number): string =>
  `${sessionCookieName(port)}=${secret}; HttpOnly; SameSite=Strict; Path=/`;

/** The value of one cookie in a Cookie header, if present. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function hasSession(req: IncomingMessage, secret: string, port: number): boolean {
  return sameSecret(cookieValue(req.headers.cookie, sessionCookieName(port)), secret);
}

/** The Host values this server answers to: loopback by IP or by name, on its own port. */
export const allowedHosts = (port: number): string[] => [`127.0.0.1:${port}`, `localhost:${port}`];

export const allowedOrigins = (port: number): string[] => allowedHosts(port).map((host) => `http://${host}`);

/** Host must be exactly ours: a page on another name resolving to 127.0.0.1 is refused. */
export const hostAllowed = (req: IncomingMessage, port: number): boolean =>
  allowedHosts(port).includes(req.headers.host ?? '');

/** An Origin header, when sent, must be ours (`null` from sandboxed or file pages is not). */
export const originAllowed = (req: IncomingMessage, port: number): boolean =>
  req.headers.origin === undefined || allowedOrigins(port).includes(req.headers.origin);

/**
 * Fetch metadata, when the browser sends it, must say the API request comes from our own pages;
 * tools such as curl send none.
 */
export const sameOriginFetch = (req: IncomingMessage): boolean => {
  const site = req.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin';
};

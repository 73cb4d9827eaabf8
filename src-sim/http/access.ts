/**
 * Who is calling: the key (query `key` on the live surface, `Authorization: Bearer` on v1), its plan
 * limits, and whether the source address is on the key's allowlist.
 */
import type { IncomingMessage } from 'node:http';
import { PLANS, type PlanId } from '../../src-shared/plans';
import { ApiError } from './respond';

export type SimKey = {
  key: string;
  plan: PlanId;
  ips: string[];
  /** Overrides the plan's rate (any plan; the spec leaves Enterprise's open). */
  ratePerMinute?: number;
  /** Overrides the plan's data window in days (any plan). */
  windowDays?: number;
};

export type ResolvedKey = {
  key: string;
  plan: PlanId;
  planLabel: string;
  ips: Set<string>;
  ratePerMinute: number;
  windowDays: number;
};

export const DEFAULT_KEYS: SimKey[] = [{ key: 'demo-key', plan: 'developer', ips: ['127.0.0.1', '::1'] }];

export function resolveKey(k: SimKey): ResolvedKey {
  const plan = PLANS[k.plan];
  return {
    key: k.key,
    plan: k.plan,
    planLabel: plan.label,
    ips: new Set(k.ips.map(normalizeIp)),
    ratePerMinute: k.ratePerMinute ?? plan.ratePerMinute,
    windowDays: k.windowDays ?? plan.windowDays,
  };
}

/** `::ffff:127.0.0.1` → `127.0.0.1`; IPv6 lower-cased. */
export function normalizeIp(ip: string): string {
  const t = ip.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(t);
  return mapped?.[1] ?? t;
}

/**
 * The caller's address: the socket's, unless the socket is a trusted proxy; then the right-most
 * X-Forwarded-For entry that is not itself a trusted proxy.
 */
export function clientAddress(req: IncomingMessage, trustedProxies: ReadonlySet<string>): string {
  const socketIp = normalizeIp(req.socket.remoteAddress ?? '');
  const xff = req.headers['x-forwarded-for'];
  if (!trustedProxies.has(socketIp) || xff === undefined) return socketIp;
  const hops = (Array.isArray(xff) ? xff.join(',') : xff)
    .split(',')
    .map(normalizeIp)
    .filter((h) => h !== '');
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] as string;
    if (!trustedProxies.has(hop)) return hop;
  }
  return hops[0] ?? socketIp;
}

/** The key a request presents: `key` query parameter (live) or bearer token (v1). */
export function presentedKey(req: IncomingMessage, query: URLSearchParams, surface: 'live' | 'v1'): string {
  if (surface === 'live') return query.get('key') ?? '';
  const auth = req.headers.authorization ?? '';
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(auth);
  return m?.[1] ?? '';
}

/** 401 for a missing or unknown key, then 403 for an address not on its allowlist. */
export function authenticate(
  keys: ReadonlyMap<string, ResolvedKey>,
  presented: string,
  address: string,
  surface: 'live' | 'v1',
): ResolvedKey {
  const how = surface === 'live' ? 'the key query parameter' : 'an Authorization: Bearer header';
  if (presented === '') throw new ApiError(401, [`API key missing: send it in ${how}`]);
  const k = keys.get(presented);
  if (!k) throw new ApiError(401, ['API key invalid']);
  if (!k.ips.has(address)) {
    throw new ApiError(403, [`source address ${address} is not on this key's static-IP allowlist`]);
  }
  return k;
}

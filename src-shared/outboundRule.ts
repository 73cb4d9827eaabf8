/**
 * The written-address rule every outbound address obeys (DESIGN: "Outbound addresses and secrets"):
 * https only, except literal loopback — 127.0.0.0/8, [::1] or `localhost` as written in the URL,
 * never decided through DNS. Pure, so the settings schema refuses such an address as it is typed;
 * the engine's one decider (src-main/engine/api/outboundAddress.ts) applies it to every request.
 */

/** Whether a URL's hostname, as written, is loopback: 127.x.y.z, [::1] / ::1, or localhost. */
export function isLiteralLoopback(hostname: string): boolean {
  const h = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (h === 'localhost') return true;
  if (h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  return v4 !== null && v4[1] === '127' && v4.slice(2).every((n) => Number(n) <= 255);
}

/**
 * What an address is for, so a refusal names the rule that applies: the API (its key travels in
 * each request) or a map tile source (online tiles, a PMTiles archive to download), which never
 * receives the key.
 */
export type OutboundUse = 'api' | 'tiles';

/** Why an address may not be contacted, in plain words; null when it may. */
export function outboundProblem(address: string, use: OutboundUse = 'api'): string | null {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return 'Enter a full URL, such as https://api.example.com';
  }
  if (url.username || url.password) return 'The address may not contain a user name or password.';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:') {
    if (isLiteralLoopback(url.hostname)) return null;
    return use === 'tiles'
      ? `A map tile source must start with https:// — Blotter fetches map tiles only over https, so nobody on the way can change them or see which places you look at (plain http:// is allowed only for this computer: localhost, 127.0.0.1 or [::1]).`
      : `The address must start with https:// — plain http:// would send the API key and the data unencrypted (it is allowed only for this computer: localhost, 127.0.0.1 or [::1]).`;
  }
  return 'The URL must start with https://';
}

/**
 * A second, independent server for the live surface (`GET /crimes.json`), written from the spec text
 * alone and NOT from the simulator (src-sim), so the sync can be tried against readings its own team
 * did not make. Test-only (sync tests and bench/sync.ts). Every point where the spec leaves room is
 * an option, defaulting to the less convenient reading:
 *
 * - `distance`: what `radius` degrees means — degree space sqrt(Δlat² + Δlon²) (default), great-circle
 *   degrees of arc, a lat/lon box, or "0.01 is about one mile" taken literally (radius × 100 miles).
 * - `since`: "occurred after this date" — exclusive in the incident's zone (default), inclusive, or
 *   exclusive on the UTC date.
 * - `window`: the plan window counted on occurred (default) or report times; a `since` older than it
 *   answers the window (`beforeWindow: 'window'`) or, as Errors rule 1 literally says, nothing.
 * - `ties`: equal report minutes in a random order on each request (default): DESC is not the
 *   reverse of ASC.
 * - `typesMatch`: the `types` filter case-insensitive, or exact as the data spells the type
 *   (`Theft`; a lower-case name then matches nothing), or exact with an unknown name a 400.
 * - `errorBody`: 503/429/500 bodies as JSON, an HTML page (default), plain text or nothing.
 * - `retryAfter`: whole seconds, an HTTP date (default), a decimal number of seconds, or missing.
 * - `rateWindow`: the per-key limit over a sliding 60 s (default) or fixed clock minutes;
 *   `count429`: a refused request still takes a slot (default true).
 * - random 503 pages and 429s (`faults`), extra fields, a duplicated row now and then, dates
 *   without zero padding.
 * - off-spec answers, for "never a wrong complete": `pageCap` (max_records ignored past it, the
 *   earlier description's 50), `ignoreSortOrder` (always DESC), `sortDate: 'occurred'` (date sorts
 *   by the hidden occurred time), `distance: 'miles'` (radius read as miles), `numbersAsStrings`, `nullAddress`,
 *   `radiusOver` ('clamp': a radius beyond `maxRadius` silently searched at `maxRadius`).
 *
 * The data look like a city: a dense downtown (Kansas City, MO), a sparse suburb (Overland Park, KS),
 * and one point with 700 incidents on one day. Report lags run from minutes to 35 h. The clock is
 * real (the sync's limiter and the server's counter see the same time); rate violations (429s the
 * limit itself caused, not the random ones) are counted.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { seededRandom } from '../../analysis/random';

export type StrangerOptions = {
  seed?: number;
  key?: string;
  ratePerMinute?: number;
  windowDays?: number;
  distance?: 'degrees' | 'great-circle' | 'box' | 'hundred-miles' | 'miles';
  /** What `sort_by=date` sorts by: the report date (the spec) or, misread, the hidden occurred time. */
  sortDate?: 'reported' | 'occurred';
  since?: 'exclusive' | 'inclusive' | 'utc-exclusive' | 'honolulu-exclusive';
  window?: 'occurred' | 'reported';
  beforeWindow?: 'window' | 'empty';
  ties?: 'random' | 'cdid';
  typesMatch?: 'insensitive' | 'exact' | 'exact-400';
  /** How the data spell types: as the spec lists them (`Theft`) or upper case (`THEFT`). */
  typeCase?: 'title' | 'upper';
  /** The pile's types: a city's mix, or all one type (then no `types` split can separate them). */
  pileTypes?: 'mixed' | 'one';
  errorBody?: 'json' | 'html' | 'text' | 'empty';
  retryAfter?: 'seconds' | 'http-date' | 'decimal' | 'missing';
  rateWindow?: 'sliding' | 'fixed';
  count429?: boolean;
  /** Random answers: a 503 page, a 429 (not a violation). Seeded. */
  faults?: { rate503?: number; rate429?: number };
  extraFields?: boolean;
  /** Share of pages that repeat one of their rows. */
  duplicateRows?: number;
  unpaddedDates?: boolean;
  /** Largest radius (degrees) answered; beyond it a 400 (default) or a silent clamp. */
  maxRadius?: number;
  radiusOver?: '400' | 'clamp';
  pageCap?: number;
  ignoreSortOrder?: boolean;
  numbersAsStrings?: boolean;
  nullAddress?: boolean;
  latencyMs?: number;
  /** Scale of the city (incidents over the whole span). */
  incidents?: number;
};

export type StrangerIncident = {
  cdid: number;
  type: string;
  address: string;
  lat: number;
  lon: number;
  zone: string;
  occurredMs: number;
  reportedMs: number;
  /** Local YYYY-MM-DD of the occurrence, in its zone and in UTC. */
  occurredDay: string;
  occurredUtcDay: string;
  /** ... and in Honolulu (a server comparing `since` in its own far-west zone). */
  occurredHonoluluDay: string;
  date: string;
};

export type StrangerStats = {
  total: number;
  byStatus: Record<string, number>;
  /** 429s the rate limit caused (the client sent more than the limit allowed). */
  violations: number;
  injected429: number;
  injected503: number;
};

export type StrangerServer = {
  url: string;
  key: string;
  options: Required<Omit<StrangerOptions, 'faults'>> & { faults: { rate503: number; rate429: number } };
  incidents: readonly StrangerIncident[];
  downtown: { lat: number; lon: number };
  suburb: { lat: number; lon: number };
  pile: { lat: number; lon: number; count: number; day: string };
  stats(): StrangerStats;
  /** Served incidents inside a ground circle (miles), in the window now, reported by `reportedBy`. */
  truth(area: { lat: number; lon: number; radiusMi: number }, reportedBy?: number): StrangerIncident[];
  /** Whether the incident is in the plan window at `at`. */
  inWindow(i: StrangerIncident, at: number): boolean;
  close(): Promise<void>;
};

const ZONE = 'America/Chicago';
const DOWNTOWN = { lat: 39.0997, lon: -94.5786 };
const SUBURB = { lat: 38.9822, lon: -94.6708 };
const TITLE_TYPES = [
  'Theft',
  'Assault',
  'Burglary',
  'Vandalism',
  'Robbery',
  'Arrest',
  'Other',
  'Shooting',
  'Arson',
];
const TYPE_WEIGHTS = [34, 18, 12, 11, 8, 8, 6, 2, 1];
const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const MILES_PER_DEG = 69.09;

export async function startStrangerServer(opts: StrangerOptions = {}): Promise<StrangerServer> {
  const o = {
    seed: 11,
    key: 'stranger-key-0001',
    ratePerMinute: 60,
    windowDays: 90,
    distance: 'degrees' as const,
    since: 'exclusive' as const,
    window: 'occurred' as const,
    beforeWindow: 'window' as const,
    ties: 'random' as const,
    typesMatch: 'exact' as const,
    typeCase: 'title' as const,
    pileTypes: 'mixed' as const,
    errorBody: 'html' as const,
    retryAfter: 'http-date' as const,
    rateWindow: 'sliding' as const,
    count429: true,
    extraFields: true,
    duplicateRows: 0.1,
    unpaddedDates: true,
    maxRadius: 0.2,
    radiusOver: '400' as const,
    pageCap: 500,
    ignoreSortOrder: false,
    sortDate: 'reported' as const,
    numbersAsStrings: false,
    nullAddress: false,
    latencyMs: 0,
    incidents: 12_000,
    ...opts,
    faults: { rate503: 0, rate429: 0, ...opts.faults },
  };
  const rand = seededRandom(o.seed);
  const now = Math.floor(Date.now() / MINUTE) * MINUTE;
  const incidents = generate(o, rand, now);
  const pile = pileOf(incidents);
  const stats: StrangerStats = { total: 0, byStatus: {}, violations: 0, injected429: 0, injected503: 0 };
  const arrivals: number[] = [];
  const faultRand = seededRandom(o.seed * 7 + 1);
  const orderRand = seededRandom(o.seed * 13 + 5);

  const inWindow = (i: StrangerIncident, at: number): boolean =>
    i.reportedMs <= at && (o.window === 'occurred' ? i.occurredMs : i.reportedMs) >= at - o.windowDays * DAY;

  const send = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) => {
    stats.byStatus[status] = (stats.byStatus[status] ?? 0) + 1;
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
    res.end(body);
  };
  const fail = (
    res: ServerResponse,
    status: number,
    message: string,
    headers: Record<string, string> = {},
  ) => {
    if (status === 400 || status === 401 || status === 404) {
      return send(res, status, JSON.stringify({ errors: [message] }), headers);
    }
    const bodies = {
      json: JSON.stringify({ errors: [message] }),
      html: `<!DOCTYPE html><html><head><title>${status}</title></head><body><h1>${status}</h1><p>${message}</p></body></html>`,
      text: `${status} ${message}`,
      empty: '',
    };
    const type = { json: 'application/json', html: 'text/html', text: 'text/plain', empty: 'text/plain' };
    return send(res, status, bodies[o.errorBody], { 'Content-Type': type[o.errorBody], ...headers });
  };
  const retryAfter = (seconds: number): Record<string, string> => {
    const s = Math.max(1, seconds);
    if (o.retryAfter === 'missing') return {};
    if (o.retryAfter === 'decimal') return { 'Retry-After': (s - 0.5).toFixed(1) };
    if (o.retryAfter === 'http-date') return { 'Retry-After': new Date(Date.now() + s * 1000).toUTCString() };
    return { 'Retry-After': String(s) };
  };

  /** Whether the limit has room for a request arriving now; the seconds to wait when not. */
  const rateCheck = (t: number): number => {
    if (o.rateWindow === 'fixed') {
      const start = Math.floor(t / MINUTE) * MINUTE;
      const n = arrivals.filter((a) => a >= start).length;
      return n < o.ratePerMinute ? 0 : Math.ceil((start + MINUTE - t) / 1000);
    }
    while (arrivals.length > 0 && (arrivals[0] as number) <= t - MINUTE) arrivals.shift();
    return arrivals.length < o.ratePerMinute ? 0 : Math.ceil(((arrivals[0] as number) + MINUTE - t) / 1000);
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const t = Date.now();
    const url = new URL(req.url ?? '/', 'http://x');
    stats.total++;
    if (req.method !== 'GET') return fail(res, 405, 'GET only');
    const search = url.pathname === '/crimes.json';
    if (!search && !/^\/crimes\/\d+\.json$/.test(url.pathname)) return fail(res, 404, 'no such route');
    if (url.searchParams.get('key') !== o.key) return fail(res, 401, 'invalid api key');
    if (o.rateWindow === 'fixed') {
      const start = Math.floor(t / MINUTE) * MINUTE;
      while (arrivals.length > 0 && (arrivals[0] as number) < start - MINUTE) arrivals.shift();
    }
    const wait = rateCheck(t);
    if (wait > 0) {
      stats.violations++;
      if (o.count429) arrivals.push(t);
      return fail(res, 429, 'rate limit exceeded', retryAfter(wait));
    }
    arrivals.push(t);
    if (faultRand() < o.faults.rate429) {
      stats.injected429++;
      return fail(res, 429, 'slow down', retryAfter(1));
    }
    if (faultRand() < o.faults.rate503) {
      stats.injected503++;
      return fail(res, 503, 'Service Temporarily Unavailable');
    }
    if (!search) {
      const cdid = Number(/\d+/.exec(url.pathname)?.[0]);
      const i = incidents.find((x) => x.cdid === cdid && inWindow(x, t));
      if (!i) return fail(res, 404, `cdid ${cdid} not found`);
      return send(
        res,
        200,
        JSON.stringify({ ...shown(i), description: `Report of ${i.type} at ${i.address}.` }),
      );
    }
    const q = readQuery(url.searchParams, o);
    if ('error' in q) return fail(res, 400, q.error);
    let radius = q.radius;
    if (radius > o.maxRadius) {
      if (o.radiusOver === '400') return fail(res, 400, `radius must be at most ${o.maxRadius}`);
      radius = o.maxRadius;
    }
    const windowStart = t - o.windowDays * DAY;
    const stale = q.since !== null && q.since < utcDay(windowStart);
    let rows =
      stale && o.beforeWindow === 'empty'
        ? []
        : incidents.filter(
            (i) =>
              inWindow(i, t) &&
              within(o.distance, q.lat, q.lon, radius, i) &&
              (q.since === null || sinceKeeps(o.since, q.since, i)) &&
              (q.types === null ||
                q.types.has(o.typesMatch === 'insensitive' ? i.type.toLowerCase() : i.type)),
          );
    if (q.types !== null && o.typesMatch === 'exact-400') {
      const known = new Set(incidents.map((i) => i.type));
      const unknown = [...q.types].filter((x) => !known.has(x));
      if (unknown.length > 0) return fail(res, 400, `types: unknown type ${unknown.join(',')}`);
    }
    const keyed = rows.map((i) => ({ i, tie: o.ties === 'random' ? orderRand() : i.cdid }));
    const desc = o.ignoreSortOrder || q.sortOrder === 'DESC';
    const by =
      q.sortBy === 'distance'
        ? (a: (typeof keyed)[number]) => distanceOf(o.distance, q.lat, q.lon, a.i)
        : (a: (typeof keyed)[number]) => (o.sortDate === 'occurred' ? a.i.occurredMs : a.i.reportedMs);
    keyed.sort((a, b) => (by(a) - by(b) || a.tie - b.tie) * (desc ? -1 : 1));
    rows = keyed.slice(0, Math.min(q.maxRecords, o.pageCap)).map((k) => k.i);
    const body = rows.map(shown);
    if (body.length > 1 && faultRand() < o.duplicateRows) {
      const k = Math.floor(faultRand() * (body.length - 1));
      body.splice(k + 1, 0, body[k] as Record<string, unknown>);
    }
    const text = JSON.stringify({
      crimes: body,
      ...(o.extraFields ? { count: body.length, status: 'ok' } : {}),
    });
    const cb = url.searchParams.get('callback');
    send(res, 200, cb ? `${cb}(${text});` : text);
  };

  const shown = (i: StrangerIncident): Record<string, unknown> => {
    const n = (x: number): number | string => (o.numbersAsStrings ? String(x) : x);
    return {
      ...(o.extraFields ? { id: `KC-${i.cdid}`, incident_code: 1000 + (i.cdid % 900), source: 'KCPD' } : {}),
      type: i.type,
      address: o.nullAddress && i.cdid % 97 === 0 ? null : i.address,
      lat: n(i.lat),
      lon: n(i.lon),
      cdid: n(i.cdid),
      link: `https://stranger.example/incident/${i.cdid}`,
      date: o.unpaddedDates ? i.date.replace(/(^|\/|\s)0(\d)/g, '$1$2') : i.date,
    };
  };

  const server = createServer((req, res) => {
    if (o.latencyMs > 0) setTimeout(() => handle(req, res), o.latencyMs);
    else handle(req, res);
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    key: o.key,
    options: o,
    incidents,
    downtown: DOWNTOWN,
    suburb: SUBURB,
    pile,
    stats: () => structuredClone(stats),
    truth: (area, reportedBy = Date.now()) =>
      incidents.filter(
        (i) => inWindow(i, reportedBy) && groundMiles(area.lat, area.lon, i.lat, i.lon) <= area.radiusMi,
      ),
    inWindow,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Query = {
  lat: number;
  lon: number;
  radius: number;
  since: string | null;
  maxRecords: number;
  sortBy: 'date' | 'distance';
  sortOrder: 'ASC' | 'DESC';
  types: Set<string> | null;
};

function readQuery(p: URLSearchParams, o: { typesMatch: string }): Query | { error: string } {
  const num = (name: string): number | null => {
    const v = p.get(name);
    return v !== null && /^[-+]?\d*\.?\d+$/.test(v) ? Number(v) : null;
  };
  const lat = num('lat');
  const lon = num('lon');
  const radius = num('radius');
  if (lat === null || Math.abs(lat) > 90) return { error: 'lat is required' };
  if (lon === null || Math.abs(lon) > 180) return { error: 'lon is required' };
  if (radius === null || radius <= 0) return { error: 'radius is required' };
  const since = p.get('since');
  if (since !== null && !/^\d{4}-\d{2}-\d{2}$/.test(since)) return { error: 'since must be YYYY-MM-DD' };
  const mr = p.get('max_records') ?? '50';
  if (!/^\d+$/.test(mr) || Number(mr) < 1 || Number(mr) > 500)
    return { error: 'max_records must be 1 to 500' };
  const sortBy = p.get('sort_by') ?? 'date';
  const sortOrder = p.get('sort_order') ?? 'DESC';
  if (sortBy !== 'date' && sortBy !== 'distance') return { error: 'sort_by must be date or distance' };
  if (sortOrder !== 'ASC' && sortOrder !== 'DESC') return { error: 'sort_order must be ASC or DESC' };
  const t = p.get('types');
  const types =
    t === null
      ? null
      : new Set(
          t.split(',').map((x) => (o.typesMatch === 'insensitive' ? x.trim().toLowerCase() : x.trim())),
        );
  return { lat, lon, radius, since, maxRecords: Number(mr), sortBy, sortOrder, types };
}

function sinceKeeps(mode: StrangerOptions['since'], since: string, i: StrangerIncident) {
  if (mode === 'inclusive') return i.occurredDay >= since;
  if (mode === 'honolulu-exclusive') return i.occurredHonoluluDay > since;
  if (mode === 'utc-exclusive') return i.occurredUtcDay > since;
  return i.occurredDay > since;
}

function distanceOf(
  mode: StrangerOptions['distance'],
  lat: number,
  lon: number,
  i: StrangerIncident,
): number {
  const dlat = i.lat - lat;
  const dlon = i.lon - lon;
  if (mode === 'great-circle') return groundMiles(lat, lon, i.lat, i.lon) / MILES_PER_DEG;
  if (mode === 'box') return Math.max(Math.abs(dlat), Math.abs(dlon));
  if (mode === 'hundred-miles') return groundMiles(lat, lon, i.lat, i.lon) / 100;
  if (mode === 'miles') return groundMiles(lat, lon, i.lat, i.lon);
  return Math.hypot(dlat, dlon);
}

function within(mode: StrangerOptions['distance'], lat: number, lon: number, r: number, i: StrangerIncident) {
  return distanceOf(mode, lat, lon, i) <= r;
}

export function groundMiles(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * 3958.8 * Math.asin(Math.min(1, Math.sqrt(a)));
}

const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

const dayFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
const honoluluDay = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Pacific/Honolulu',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
const dateFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: ZONE,
  year: '2-digit',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hour12: true,
});

/** `MM/DD/YY HH:MM AM` in the city's zone. */
function legacyDate(ms: number): string {
  const p = Object.fromEntries(dateFormat.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return `${p.month}/${p.day}/${p.year} ${p.hour}:${p.minute} ${String(p.dayPeriod).toUpperCase()}`;
}

function pickType(rand: () => number): string {
  let x = rand() * TYPE_WEIGHTS.reduce((a, b) => a + b, 0);
  for (let k = 0; k < TITLE_TYPES.length; k++) {
    x -= TYPE_WEIGHTS[k] as number;
    if (x < 0) return TITLE_TYPES[k] as string;
  }
  return 'Other';
}

/** Gaussian offsets in miles (Box–Muller). */
function gauss(rand: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
}

/** A report lag: mostly minutes to hours, a tail to 35 h (the sync assumes at most 36). */
function lag(rand: () => number): number {
  const u = rand();
  if (u < 0.6) return (5 + rand() * 120) * MINUTE;
  if (u < 0.9) return (2 + rand() * 20) * HOUR;
  return (22 + rand() * 13) * HOUR;
}

function generate(
  o: { incidents: number; windowDays: number; pileTypes: 'mixed' | 'one'; typeCase: 'title' | 'upper' },
  rand: () => number,
  now: number,
) {
  const spanDays = o.windowDays + 10;
  const out: StrangerIncident[] = [];
  const used = new Set<number>();
  const add = (
    lat: number,
    lon: number,
    type: string,
    occurredMs: number,
    reportedMs: number,
    street: string,
  ) => {
    if (reportedMs > now) return;
    let cdid = 0;
    while (cdid === 0 || used.has(cdid)) cdid = 100_000_000 + Math.floor(rand() * 899_999_999);
    used.add(cdid);
    out.push({
      cdid,
      type: o.typeCase === 'upper' ? type.toUpperCase() : type,
      address: street,
      lat: Math.round(lat * 1e6) / 1e6,
      lon: Math.round(lon * 1e6) / 1e6,
      zone: ZONE,
      occurredMs,
      reportedMs,
      occurredDay: dayFormat.format(new Date(occurredMs)),
      occurredUtcDay: utcDay(occurredMs),
      occurredHonoluluDay: honoluluDay.format(new Date(occurredMs)),
      date: legacyDate(reportedMs),
    });
  };
  const cosLat = Math.cos((DOWNTOWN.lat * Math.PI) / 180);
  const place = (c: { lat: number; lon: number }, dxMi: number, dyMi: number) => ({
    // Snapped to blocks (about 1/16 mile), as block-level addresses are.
    lat: c.lat + Math.round((dyMi / MILES_PER_DEG) * 1100) / 1100,
    lon: c.lon + Math.round((dxMi / (MILES_PER_DEG * cosLat)) * 1100) / 1100,
  });
  const street = (lat: number, lon: number) =>
    `${Math.abs(Math.round(lon * 5000) % 90) * 100} BLOCK OF ${['MAIN ST', 'GRAND BLVD', 'TROOST AVE', 'PASEO', 'METCALF AVE'][Math.abs(Math.round(lat * 3000)) % 5]}`;
  const timeOf = () => {
    const occurredMs = now - rand() * spanDays * DAY;
    return { occurredMs, reportedMs: Math.floor((occurredMs + lag(rand)) / MINUTE) * MINUTE };
  };
  // Downtown: 70 % in a dense core (σ 0.5 mi), the rest spread over 4 miles; the suburb: sparse.
  for (let k = 0; k < o.incidents; k++) {
    const suburb = k % 12 === 0;
    const c = suburb ? SUBURB : DOWNTOWN;
    const core = !suburb && rand() < 0.7;
    const [dx, dy] = suburb
      ? [(rand() * 2 - 1) * 3, (rand() * 2 - 1) * 3]
      : core
        ? [gauss(rand) * 0.5, gauss(rand) * 0.5]
        : [(rand() * 2 - 1) * 4, (rand() * 2 - 1) * 4];
    const p = place(c, dx, dy);
    const { occurredMs, reportedMs } = timeOf();
    add(p.lat, p.lon, pickType(rand), occurredMs, Math.floor(reportedMs), street(p.lat, p.lon));
  }
  // The pile: 700 incidents at one address on one day (a stadium event), reported through the day.
  const pileAt = place(DOWNTOWN, 1.2, -0.9);
  const dayStart = Date.parse(`${dayFormat.format(new Date(now - 20 * DAY))}T14:00:00Z`);
  for (let k = 0; k < 700; k++) {
    const occurredMs = dayStart + rand() * 10 * HOUR;
    const reportedMs = Math.floor((occurredMs + (5 + rand() * 60) * MINUTE) / MINUTE) * MINUTE;
    add(
      pileAt.lat,
      pileAt.lon,
      o.pileTypes === 'one' ? 'Theft' : pickType(rand),
      occurredMs,
      reportedMs,
      '1800 BLOCK OF GENESSEE ST',
    );
  }
  return out.sort((a, b) => a.reportedMs - b.reportedMs);
}

function pileOf(incidents: readonly StrangerIncident[]) {
  const at = new Map<string, StrangerIncident[]>();
  for (const i of incidents) {
    const k = `${i.lat},${i.lon},${i.occurredDay}`;
    at.set(k, [...(at.get(k) ?? []), i]);
  }
  const top = [...at.values()].reduce((a, b) => (b.length > a.length ? b : a));
  const first = top[0] as StrangerIncident;
  return { lat: first.lat, lon: first.lon, count: top.length, day: first.occurredDay };
}

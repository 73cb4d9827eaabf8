/**
 * Incidents placed on purpose, so tests always have the hard cases: a block with more than 500
 * incidents on one local day, reports in the repeated hour of every fall-back transition, and
 * addresses that are hostile to HTML and CSV.
 */
import { CRIME_TYPES } from '../../src-shared/crimeTypes';
import { SPECIAL_ADDRESSES, snapToBlock } from './addresses';
import { BIG_BLOCK_CITY, BIG_BLOCK_SPOT, CITIES } from './cities';
import { drawPlace, drawType, takeCdid, typeIndex, type Process } from './occurrences';
import type { Prng } from './prng';
import type { Store } from './store';
import { DAY, formatDay, type ZoneTable } from './timeZones';

const MINUTE = 60_000;
const HOUR = 3_600_000;
export const BIG_BLOCK_COUNT = 650;
export const BIG_BLOCK_DAYS_AGO = 20;
export const SPECIALS_DAYS_AGO = 3;

export type BigBlock = {
  city: string;
  lat: number;
  lon: number;
  address: string;
  /** The local date (in the city's zone) on which all of them occurred and were reported. */
  date: string;
  count: number;
};

export type Fixtures = {
  bigBlock: BigBlock;
  /** The incidents with hostile addresses, in SPECIAL_ADDRESSES order. */
  specialAddresses: { cdid: number; address: string }[];
  /** Incidents whose local report time falls in the repeated hour of a fall-back transition. */
  dstRepeatedHour: number[];
};

/** The UTC instant of a local wall time (fake-UTC epoch) in a zone; the later one when repeated. */
export function localToUtc(zone: ZoneTable, localMs: number): number {
  let t = localMs - zone.offset(localMs) * MINUTE;
  t = localMs - zone.offset(t) * MINUTE;
  return t;
}

function addBigBlock(store: Store, p: Process, prng: Prng, now: number): BigBlock {
  const zone = store.zone(BIG_BLOCK_CITY);
  const day = zone.localDay(now - BIG_BLOCK_DAYS_AGO * DAY);
  const place = snapToBlock(BIG_BLOCK_SPOT.lat, BIG_BLOCK_SPOT.lon);
  const mix = [
    'Theft',
    'Theft',
    'Theft',
    'Arrest',
    'Arrest',
    'Assault',
    'Vandalism',
    'Other',
    'Robbery',
    'Theft',
  ];
  let row = -1;
  for (let k = 0; k < BIG_BLOCK_COUNT; k++) {
    // Occurred 08:00–21:00 local; reported within 90 minutes, so both stay on the same local day.
    const local = day * DAY + 8 * HOUR + Math.floor((prng.next() * 13 * HOUR) / MINUTE) * MINUTE;
    const occurredAt = localToUtc(zone, local);
    const type = typeIndex(mix[prng.int(0, mix.length - 1)] ?? 'Theft');
    const reportedAt = occurredAt + prng.int(5, 90) * MINUTE;
    row = store.push({
      cdid: takeCdid(p, prng),
      ...place,
      occurredAt,
      reportedAt,
      type,
      city: BIG_BLOCK_CITY,
    });
  }
  const city = CITIES[BIG_BLOCK_CITY];
  return {
    city: city?.name ?? '',
    ...place,
    address: store.address(row),
    date: formatDay(day),
    count: BIG_BLOCK_COUNT,
  };
}

/** Three reports in each pass of the repeated hour of every fall-back transition in [from, to). */
function addDstCases(store: Store, p: Process, prng: Prng, from: number, to: number): number[] {
  const cdids: number[] = [];
  for (let c = 0; c < CITIES.length; c++) {
    const zone = store.zone(c);
    for (let h = Math.ceil(from / HOUR) + 1; h * HOUR < to - HOUR; h++) {
      const t = h * HOUR;
      if (zone.offset(t) >= zone.offset(t - HOUR)) continue;
      for (const passStart of [t - HOUR, t]) {
        for (const minute of [10, 30, 50]) {
          const reportedAt = passStart + minute * MINUTE;
          const place = drawPlace(c, prng);
          const cdid = takeCdid(p, prng);
          const occurredAt = reportedAt - prng.int(20, 80) * MINUTE;
          store.push({ cdid, ...place, occurredAt, reportedAt, type: drawType(1, prng), city: c });
          cdids.push(cdid);
        }
      }
    }
  }
  return cdids;
}

function addSpecialAddresses(store: Store, p: Process, now: number): { cdid: number; address: string }[] {
  const base = Math.floor((now - SPECIALS_DAYS_AGO * DAY) / MINUTE) * MINUTE;
  return SPECIAL_ADDRESSES.map((address, k) => {
    const place = snapToBlock(41.87 + k * 0.0016, -87.64);
    const occurredAt = base + k * 37 * MINUTE;
    const cdid = p.nextCdid++;
    const row = store.push({
      cdid,
      ...place,
      occurredAt,
      reportedAt: occurredAt + 45 * MINUTE,
      type: k % CRIME_TYPES.length,
      city: 0,
    });
    store.addressOverride.set(row, address);
    return { cdid, address };
  });
}

/** Adds every fixture; `from`..`now` is the generated span. */
export function addFixtures(store: Store, p: Process, prng: Prng, from: number, now: number): Fixtures {
  return {
    bigBlock: addBigBlock(store, p, prng, now),
    dstRepeatedHour: addDstCases(store, p, prng, from, now),
    specialAddresses: addSpecialAddresses(store, p, now),
  };
}

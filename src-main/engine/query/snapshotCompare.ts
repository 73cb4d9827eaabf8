/**
 * Whether two snapshots hold the same incidents with the same values, whatever their row order
 * or dictionary ids: used to tell the views to ask again only when a background re-read found
 * something new. Compares in slices, pausing between them.
 */
import { GONE, type Snapshot } from './snapshot';

const SLICE = 200_000;

export async function sameContent(a: Snapshot, b: Snapshot, pause: () => Promise<void>): Promise<boolean> {
  const live = (s: Snapshot) => {
    let n = 0;
    for (let i = 0; i < s.size; i++) if (s.state[i] !== GONE) n++;
    return n;
  };
  if (live(a) !== live(b)) return false;
  // Dictionary id of b → id of a (or -1), once per dictionary.
  const mapIds = (from: string[], to: { find(v: string): number }) =>
    Int32Array.from(from, (v) => to.find(v));
  const types = mapIds(b.types.values, a.types);
  const zones = mapIds(b.zones.values, a.zones);
  const addresses = mapIds(b.addresses.values, a.addresses);
  let hint = 0;
  let previous = -Infinity;
  for (let start = 0; start < b.size; start += SLICE) {
    for (let j = start; j < Math.min(b.size, start + SLICE); j++) {
      if (b.state[j] === GONE) continue;
      const cdid = b.cdid[j] as number;
      const i = a.rowOf(cdid, cdid > previous ? hint : 0);
      previous = cdid;
      if (i < 0) return false;
      if (i < a.sortedRows) hint = i;
      if (
        a.state[i] !== b.state[j] ||
        a.lat[i] !== b.lat[j] ||
        a.lon[i] !== b.lon[j] ||
        a.utc[i] !== b.utc[j] ||
        a.day[i] !== b.day[j] ||
        a.minute[i] !== b.minute[j] ||
        a.type[i] !== types[b.type[j] as number] ||
        a.zone[i] !== zones[b.zone[j] as number] ||
        a.addr[i] !== addresses[b.addr[j] as number]
      ) {
        return false;
      }
    }
    await pause();
  }
  return true;
}

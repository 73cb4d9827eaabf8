/**
 * The map's time playback (issue 15, item 7): the filter's incidents ordered by local day with an
 * offset per day (a counting sort, one pass to count and one to place), so the renderer draws a
 * day or a week as a slice of packed columns and never sorts or filters 1M incidents itself. Types
 * are indexed as the map points do (query/packedPoints.ts: first appearance, ≤ 256). The filter's
 * dates come along, so the periods stay inside them.
 */
import type { PlaybackPoints } from '../../../src-shared/analysis';
import { dayString } from '../../../src-shared/filters';
import { packPoints } from '../query/packedPoints';
import type { Resolved } from '../query/service';

export function playbackPoints({
  snapshot,
  set,
  range,
}: Pick<Resolved, 'snapshot' | 'set'> & Partial<Pick<Resolved, 'range'>>): PlaybackPoints {
  const n = set.count;
  let first = Infinity;
  let last = -Infinity;
  for (let j = 0; j < n; j++) {
    const d = snapshot.day[set.rows[j] as number] as number;
    if (d < first) first = d;
    if (d > last) last = d;
  }
  const days = n ? last - first + 1 : 0;
  const offsets = new Uint32Array(days + 1);
  for (let j = 0; j < n; j++) offsets[(snapshot.day[set.rows[j] as number] as number) - first + 1]!++;
  for (let d = 0; d < days; d++) offsets[d + 1]! += offsets[d] as number;
  const next = offsets.slice(0, Math.max(1, days));
  const { lat, lon, typeIndex, types } = packPoints(
    snapshot,
    set,
    (_, row) => next[(snapshot.day[row] as number) - first]!++,
  );
  return {
    count: n,
    firstDay: n ? dayString(first) : null,
    from: range?.from ?? null,
    to: range?.to ?? null,
    offsets,
    lat,
    lon,
    typeIndex,
    types,
  };
}

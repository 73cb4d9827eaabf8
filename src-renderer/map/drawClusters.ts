/**
 * How a cluster batch looks: a cluster is a disc sized by its incident count with a ring split by
 * type (its mix at a glance) and the count in the middle; a single incident is a dot in its type's
 * colour; several incidents at one address are a small ringed dot with their number. Canvas only —
 * text is drawn with fillText, never as HTML.
 */
import type { ClusterBatch } from './clusterIndex';

export type DrawnMarks = { x: Float32Array; y: Float32Array; r: Float32Array };

export type MarkStyle = { surface: string; text: string; halo: string };

export const abbreviate = (n: number): string =>
  n >= 1_000_000
    ? `${(n / 1e6).toFixed(1)}M`
    : n >= 10_000
      ? `${Math.round(n / 1000)}k`
      : n >= 1000
        ? `${(n / 1000).toFixed(1)}k`
        : String(n);

export function markRadius(count: number, isCluster: boolean): number {
  if (!isCluster) return count > 1 ? 8 : 5;
  return Math.min(34, 12 + 4.5 * Math.log10(count));
}

export function drawClusters(
  ctx: CanvasRenderingContext2D,
  batch: ClusterBatch,
  colours: readonly string[],
  project: (lat: number, lon: number) => { x: number; y: number },
  style: MarkStyle,
): DrawnMarks {
  const T = Math.max(1, colours.length);
  const marks: DrawnMarks = {
    x: new Float32Array(batch.size),
    y: new Float32Array(batch.size),
    r: new Float32Array(batch.size),
  };
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  // Singles first, clusters on top: the bigger picture wins where marks overlap.
  const orderOf = Array.from({ length: batch.size }, (_, i) => i).sort(
    (a, b) => (batch.count[a] as number) - (batch.count[b] as number),
  );
  for (const i of orderOf) {
    const p = project(batch.lat[i] as number, batch.lon[i] as number);
    const count = batch.count[i] as number;
    const isCluster = (batch.id[i] as number) >= 0;
    const r = markRadius(count, isCluster);
    marks.x[i] = p.x;
    marks.y[i] = p.y;
    marks.r[i] = r;
    const counts = batch.typeCounts.subarray(i * T, i * T + T);
    if (!isCluster && count === 1) {
      const t = counts.findIndex((c) => c > 0);
      ctx.beginPath();
      ctx.arc(p.x, p.y, r, 0, Math.PI * 2);
      ctx.fillStyle = colours[t] ?? '#888';
      ctx.fill();
      ctx.lineWidth = 1.5;
      ctx.strokeStyle = style.halo;
      ctx.stroke();
      continue;
    }
    ctx.beginPath();
    ctx.arc(p.x, p.y, r, 0, Math.PI * 2);
    ctx.fillStyle = style.surface;
    ctx.fill();
    const ring = isCluster ? Math.max(4, r * 0.3) : 3.5;
    let angle = -Math.PI / 2;
    for (let t = 0; t < T; t++) {
      const c = counts[t] as number;
      if (c === 0) continue;
      const sweep = (c / count) * Math.PI * 2;
      ctx.beginPath();
      ctx.arc(p.x, p.y, r - ring / 2, angle, angle + sweep);
      ctx.lineWidth = ring;
      ctx.strokeStyle = colours[t] ?? '#888';
      ctx.stroke();
      angle += sweep;
    }
    ctx.beginPath();
    ctx.arc(p.x, p.y, r, 0, Math.PI * 2);
    ctx.lineWidth = 1;
    ctx.strokeStyle = style.halo;
    ctx.stroke();
    ctx.fillStyle = style.text;
    ctx.font = `600 ${isCluster ? (r > 20 ? 12 : 11) : 9}px system-ui, sans-serif`;
    ctx.fillText(abbreviate(count), p.x, p.y + 0.5);
  }
  return marks;
}

/** The row under (x, y): the topmost (largest) mark whose disc, plus a little slack, holds it. */
export function hitTest(marks: DrawnMarks, counts: Uint32Array, x: number, y: number, slack = 3): number {
  let best = -1;
  let bestCount = -1;
  for (let i = 0; i < marks.x.length; i++) {
    const dx = (marks.x[i] as number) - x;
    const dy = (marks.y[i] as number) - y;
    const r = (marks.r[i] as number) + slack;
    if (dx * dx + dy * dy <= r * r && (counts[i] as number) >= bestCount) {
      best = i;
      bestCount = counts[i] as number;
    }
  }
  return best;
}

/**
 * The bulletin's headline (issue 27, item 2): at most five sentences written from the figures —
 * the type that rose most and the one that fell most over the last 7 days against the 7 before
 * (CompStat's table, with their counts), the significant hot spots (Gi*), a near-repeat pattern
 * (Knox), and the days the archive is missing. Under CompStat's floor it says the numbers are too
 * few to compare instead of comparing them. Pure: the figures in, the sentences out.
 */
import { HEADLINE_MAX_SENTENCES } from '../../../src-shared/bulletin';
import { dayRangeText, dayText } from '../../../src-shared/localTime';
import type { CompStatArea } from '../../../src-shared/reportAnalyses';

export type HeadlineFigures = {
  place: string;
  total: number;
  /** Under this many incidents the numbers are too few to compare. */
  minIncidents: number;
  /** The place's CompStat table, or null when it could not be made. */
  compStat: CompStatArea | null;
  /** Gi* cells per bin ('3' … '-3'), or null when the analysis did not run. */
  hotSpotBins: Record<string, number> | null;
  /** The Knox test's first sentence and whether it found a pattern; null when it did not run. */
  nearRepeat: { significant: boolean; sentence: string } | null;
  /** Runs of days the archive is missing over the report's days. */
  gaps: { from: string; to: string }[];
};

/** The period the weekly headline compares. */
const PERIOD = 'last_7_days';

const num = (n: number): string => n.toLocaleString('en-US');
const signed = (n: number): string => (n > 0 ? `+${num(n)}` : n < 0 ? `−${num(-n)}` : '0');
const plural = (n: number, one: string, many = `${one}s`): string => `${num(n)} ${n === 1 ? one : many}`;

type Change = { label: string; current: number; base: number; change: number; percent: number | null };

/** Each type's change over the last 7 days against the 7 before; null when that comparison is not made. */
export function typeChanges(table: CompStatArea): Change[] | null {
  const k = table.periods.findIndex((p) => p.key === PERIOD);
  const period = table.periods[k];
  if (!period?.prior?.compared) return null;
  const out: Change[] = [];
  for (const row of table.rows) {
    const cell = row.cells[k];
    if (row.kind !== 'type' || !cell?.prior) continue;
    out.push({ label: row.label, current: cell.current, ...cell.prior });
  }
  return out;
}

const changeWords = (c: Change): string =>
  `${num(c.current)} in the last 7 days against ${num(c.base)} in the 7 before (${signed(c.change)}${
    c.percent === null ? '' : `, ${signed(Math.round(c.percent))} %`
  })`;

function changeSentences(table: CompStatArea | null): string[] {
  if (!table) return [];
  const changes = typeChanges(table);
  if (!changes) return ['The archive does not hold the 7 days before the last 7, so no change can be given.'];
  const up = changes.filter((c) => c.change > 0).sort((a, b) => b.change - a.change)[0];
  const down = changes.filter((c) => c.change < 0).sort((a, b) => a.change - b.change)[0];
  if (!up && !down) return ['No type changed from the 7 days before.'];
  return [
    ...(up ? [`${up.label} rose most: ${changeWords(up)}.`] : []),
    ...(down ? [`${down.label} fell most: ${changeWords(down)}.`] : []),
  ];
}

function hotSpotSentence(bins: Record<string, number> | null): string | null {
  if (!bins) return null;
  const hot = (bins['3'] ?? 0) + (bins['2'] ?? 0);
  const strong = bins['3'] ?? 0;
  if (hot === 0) return 'No significant hot spot (Gi*, 95 % confidence).';
  return `${plural(hot, 'hot spot cell')} ${hot === 1 ? 'is' : 'are'} significant at 95 % confidence or more (Gi*)${
    strong > 0 ? `, ${num(strong)} of them at 99 %` : ''
  }.`;
}

function missingSentence(gaps: { from: string; to: string }[]): string | null {
  if (gaps.length === 0) return null;
  const days = gaps.reduce((n, g) => n + daysBetween(g.from, g.to) + 1, 0);
  const first = gaps
    .slice(0, 2)
    .map((g) => (g.from === g.to ? dayText(g.from) : dayRangeText(g.from, g.to)))
    .join('; ');
  return `The archive is missing ${plural(days, 'day')} (${first}${gaps.length > 2 ? ' and more' : ''}): counts over them are too low.`;
}

const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** At most HEADLINE_MAX_SENTENCES sentences, most telling first when some must go. */
export function bulletinHeadline(f: HeadlineFigures): string[] {
  const tooFew = f.total < f.minIncidents;
  // [priority (lower is kept first), sentence], printed in the order listed.
  const candidates: [number, string | null][] = tooFew
    ? [
        [
          0,
          `Only ${plural(f.total, 'incident')} in ${f.place}: too few to compare (the comparisons need at least ${num(f.minIncidents)}).`,
        ],
      ]
    : [
        [5, `${plural(f.total, 'incident')} in ${f.place}.`],
        ...changeSentences(f.compStat).map((s): [number, string] => [1, s]),
        [2, hotSpotSentence(f.hotSpotBins)],
        [f.nearRepeat?.significant ? 2 : 4, f.nearRepeat?.sentence ?? null],
      ];
  candidates.push([0, missingSentence(f.gaps)]);
  const kept = candidates
    .map(([priority, sentence], order) => ({ priority, sentence, order }))
    .filter((c): c is { priority: number; sentence: string; order: number } => c.sentence !== null)
    .sort((a, b) => a.priority - b.priority || a.order - b.order)
    .slice(0, HEADLINE_MAX_SENTENCES)
    .sort((a, b) => a.order - b.order);
  return kept.map((c) => c.sentence);
}

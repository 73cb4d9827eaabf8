/**
 * The type picker's list (issue 26, item 2): the API's standard types first, then the archive's
 * other categories under "More types" (never folded into the API's own "Other"), each section most
 * frequent first, narrowed by a search. A chosen type stays listed even when nothing matches it
 * under the other filters, so it can always be unchosen. Pure.
 */

export type TypeOption = { type: string; count: number; chosen: boolean };

export type TypeSections = { standard: TypeOption[]; more: TypeOption[] };

const byCountThenName = (a: TypeOption, b: TypeOption): number =>
  b.count - a.count || a.type.localeCompare(b.type);

export function typeSections(
  standard: readonly string[],
  byType: Record<string, number>,
  chosen: readonly string[],
  query = '',
): TypeSections {
  const needle = query.trim().toLowerCase();
  const matches = (type: string) => needle === '' || type.toLowerCase().includes(needle);
  const option = (type: string): TypeOption => ({
    type,
    count: byType[type] ?? 0,
    chosen: chosen.includes(type),
  });
  const others = new Set([...Object.keys(byType), ...chosen].filter((t) => !standard.includes(t)));
  return {
    standard: standard.filter(matches).map(option).sort(byCountThenName),
    more: [...others].filter(matches).map(option).sort(byCountThenName),
  };
}

/** The picker button's words after "Types:": "all", "1 chosen" (the chips beside it name them). */
export function typePickerText(chosen: readonly string[]): string {
  return chosen.length === 0 ? 'all' : `${chosen.length} chosen`;
}

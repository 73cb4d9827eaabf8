/**
 * Clicking a legend row hides or shows that type, through the shared filter (`types`): absent means
 * every type, so showing the last hidden type clears the filter again.
 */
export function toggleType(
  current: readonly string[] | undefined,
  all: readonly string[],
  type: string,
): string[] | undefined {
  const shown = new Set(current && current.length ? current : all);
  if (shown.has(type)) shown.delete(type);
  else shown.add(type);
  if (all.every((t) => shown.has(t))) return undefined;
  return all.filter((t) => shown.has(t)).concat([...shown].filter((t) => !all.includes(t)));
}

export const isShown = (current: readonly string[] | undefined, type: string): boolean =>
  !current || current.length === 0 || current.includes(type);

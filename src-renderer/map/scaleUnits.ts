/** The scale bar's units by locale (pure: no Leaflet, for tests). */
const IMPERIAL_REGIONS = new Set(['US', 'LR', 'MM']);

/** Whether a locale (a BCP 47 tag such as "en-US") measures distances in miles. */
export function usesMiles(locale: string): boolean {
  try {
    const region = new Intl.Locale(locale).maximize().region;
    return region !== undefined && IMPERIAL_REGIONS.has(region);
  } catch {
    return false;
  }
}

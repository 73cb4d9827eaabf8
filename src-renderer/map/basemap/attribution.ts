/** The street layer's attribution as plain text (no markup reaches the page). No Leaflet here: the report uses it too. */
import type { BasemapInfo } from '../../../src-shared/basemap';

export const OSM_ATTRIBUTION = '© OpenStreetMap contributors';

/** Attribution as plain text: tags dropped and common entities decoded, so no markup reaches the page. */
export function attributionText(raw: string | null | undefined): string {
  if (!raw) return '';
  return raw
    .replace(/<[^>]*>/g, '')
    .replace(/&copy;/gi, '©')
    .replace(/&amp;/gi, '&')
    .replace(/&lt;/gi, '<')
    .replace(/&gt;/gi, '>')
    .replace(/&quot;/gi, '"')
    .replace(/&#39;|&apos;/gi, "'")
    .replace(/&nbsp;/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The street layer's attribution: the source's, or OpenStreetMap's for a vector basemap without one. */
export function streetAttribution(info: BasemapInfo | null): string {
  const own = withOsmContributors(attributionText(info?.attribution));
  return own || (info?.format === 'mvt' ? OSM_ATTRIBUTION : '');
}

/**
 * OpenStreetMap's licence (ODbL) asks for "© OpenStreetMap contributors"; Protomaps builds write
 * "© OpenStreetMap" alone (the demo's San Francisco archive does), so the word is added there.
 */
function withOsmContributors(text: string): string {
  return text.replace(/©\s*OpenStreetMap\b(?!\s+contributors)/gi, OSM_ATTRIBUTION);
}

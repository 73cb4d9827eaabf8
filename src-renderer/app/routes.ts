/** The renderer's views and their URL hashes (#/map, #/settings …), so a reload keeps the view. */
export const VIEWS = [
  { id: 'map', label: 'Map' },
  { id: 'table', label: 'Table' },
  { id: 'history', label: 'History' },
  { id: 'analysis', label: 'Analysis' },
  { id: 'export', label: 'Export' },
  { id: 'areas', label: 'Areas' },
  { id: 'alerts', label: 'Alerts' },
  { id: 'settings', label: 'Settings' },
] as const;

export type ViewId = (typeof VIEWS)[number]['id'];

export const DEFAULT_VIEW: ViewId = 'map';

export const hashOf = (view: ViewId): string => `#/${view}`;

export function isViewId(value: string): value is ViewId {
  return VIEWS.some((view) => view.id === value);
}

/** The view a location hash names; the default view for an empty or unknown hash. */
export function viewFromHash(hash: string): ViewId {
  const id = hash.replace(/^#\/?/, '').split(/[/?]/, 1)[0]?.toLowerCase() ?? '';
  return isViewId(id) ? id : DEFAULT_VIEW;
}

/** The Map section's form: the street layer as the user types it, checked with the shared schema. */
import { BasemapSetting, type BasemapInfo } from '../../../src-shared/basemap';

export type BasemapForm = {
  kind: BasemapSetting['kind'];
  path: string;
  template: string;
  attribution: string;
};
export type BasemapErrors = Partial<Record<'path' | 'template' | 'attribution', string>>;

export function basemapFormOf(setting: BasemapSetting | undefined): BasemapForm {
  const s = setting ?? { kind: 'none' };
  return {
    kind: s.kind,
    path: s.kind === 'file' ? s.path : '',
    template: s.kind === 'url' ? s.template : '',
    attribution: s.kind === 'url' ? s.attribution : '',
  };
}

export function basemapSettingOf(form: BasemapForm): {
  setting: BasemapSetting | null;
  errors: BasemapErrors;
} {
  const candidate =
    form.kind === 'file'
      ? { kind: 'file', path: form.path }
      : form.kind === 'url'
        ? { kind: 'url', template: form.template, attribution: form.attribution }
        : { kind: 'none' };
  const parsed = BasemapSetting.safeParse(candidate);
  if (parsed.success) return { setting: parsed.data, errors: {} };
  const errors: BasemapErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if ((field === 'path' || field === 'template' || field === 'attribution') && !errors[field])
      errors[field] = issue.message;
  }
  return { setting: null, errors };
}

/** One line on what the street layer is now, in plain words. */
export function basemapStatusText(info: BasemapInfo | null): string {
  if (!info) return '';
  if (info.status === 'none')
    return 'No street layer: the map shows the bundled boundaries and place names, offline.';
  if (info.status === 'error') return info.problem ?? 'The street layer cannot be drawn.';
  if (info.kind === 'url') {
    const cached = info.cache
      ? ` ${info.cache.tiles.toLocaleString('en-US')} tiles are cached on this computer.`
      : '';
    return `Street tiles come from your tile URL, fetched by Blotter only for the map areas you view.${cached}`;
  }
  if (info.kind === 'extract')
    return `Streets come from your areas’ offline download (${info.format === 'mvt' ? 'vector' : (info.format ?? 'raster')}, zoom ${info.minZoom}–${info.maxZoom}), offline.`;
  const name = info.name ? `“${info.name}”, ` : '';
  return `Street tiles come from your file (${name}${info.format?.toUpperCase() ?? 'raster'}, zoom ${info.minZoom}–${info.maxZoom}), offline.`;
}

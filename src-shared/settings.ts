/** User settings as the renderer sees and edits them. The API key is never part of these. */
import { z } from 'zod';
import { BasemapSetting, BasemapSourceUrl } from './basemap';
import { outboundProblem } from './outboundRule';
import { PlanId, planLimits } from './plans';
import { ReportOptions } from './reportOptions';

export { PlanId };

const httpUrl = z
  .string()
  .trim()
  .url('Enter a full URL, such as https://api.example.com')
  .refine((u) => /^https?:\/\//i.test(u), 'The URL must start with https://')
  .superRefine((u, ctx) => {
    const problem = /^https?:\/\//i.test(u) ? outboundProblem(u) : null;
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .refine((u) => !/[?#]/.test(u), 'The base URL may not contain a query or fragment')
  .transform((u) => u.replace(/\/+$/, ''));

export const Settings = z.object({
  baseUrl: httpUrl.nullable(),
  plan: PlanId,
  /** Enterprise only: the contract's own rate (requests per minute). */
  ratePerMinute: z.number().int().min(1).max(100_000).nullable(),
  /** Enterprise only: the contract's own data window in days. */
  windowDays: z.number().int().min(1).max(3650).nullable(),
  /** The map's street layer (src-shared/basemap.ts); absent means none. */
  basemap: BasemapSetting.optional(),
  /** The PMTiles archive the areas' offline extract is downloaded from (src-shared/basemap.ts). */
  basemapSource: BasemapSourceUrl.optional(),
  /** The printed report's title, agency, notes and incident list, as last used (reportOptions.ts). */
  report: ReportOptions.optional(),
  /** Where the map was last left (the next launch opens there). */
  mapView: z
    .object({
      lat: z.number().min(-90).max(90),
      lon: z.number().min(-360).max(360),
      zoom: z.number().int().min(0).max(22),
    })
    .optional(),
  /** The Table's columns as the user left them: which are shown, and widths set by hand (px). */
  tableView: z
    .object({
      columns: z.array(z.string().max(200)).max(100),
      widths: z.record(z.string().max(200), z.number().int().min(20).max(2000)),
    })
    .optional(),
});
export type Settings = z.infer<typeof Settings>;

export const DEFAULT_SETTINGS: Settings = {
  baseUrl: null,
  plan: 'developer',
  ratePerMinute: null,
  windowDays: null,
};

export const SettingsPatch = Settings.partial().strict();
export type SettingsPatch = z.infer<typeof SettingsPatch>;

export const SettingsView = Settings.extend({
  /** The limits in force, derived from the plan (and Enterprise's own values). */
  effective: z.object({ ratePerMinute: z.number(), windowDays: z.number() }),
  /**
   * Whether a stored API key may be sent to this base URL. False after the base URL changed until
   * the new address is confirmed (src-main/engine/api/keyAddress.ts); absent means true.
   */
  baseUrlConfirmed: z.boolean().optional(),
});
export type SettingsView = z.infer<typeof SettingsView>;

export function viewOf(settings: Settings, baseUrlConfirmed = true): SettingsView {
  const limits = planLimits(settings.plan, settings);
  return {
    ...settings,
    effective: { ratePerMinute: limits.ratePerMinute, windowDays: limits.windowDays },
    baseUrlConfirmed,
  };
}

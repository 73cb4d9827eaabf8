/** The API's plans: their rate limits and data windows, as the spec states them. */
import { z } from 'zod';

export const PlanId = z.enum(['developer', 'pro-monthly', 'pro-annual', 'enterprise']);
export type PlanId = z.infer<typeof PlanId>;

export type PlanLimits = { label: string; ratePerMinute: number; windowDays: number };

/** Defaults per plan. Enterprise values are custom; these are placeholders the user overrides. */
export const PLANS: Record<PlanId, PlanLimits> = {
  developer: { label: 'Developer', ratePerMinute: 60, windowDays: 90 },
  'pro-monthly': { label: 'Pro (monthly)', ratePerMinute: 300, windowDays: 90 },
  'pro-annual': { label: 'Pro (annual)', ratePerMinute: 300, windowDays: 182 },
  enterprise: { label: 'Enterprise', ratePerMinute: 300, windowDays: 365 },
};

/** The effective limits: the plan's, with Enterprise's own rate and window where given. */
export function planLimits(
  plan: PlanId,
  custom?: { ratePerMinute?: number | null; windowDays?: number | null },
): PlanLimits {
  const base = PLANS[plan];
  if (plan !== 'enterprise') return base;
  return {
    label: base.label,
    ratePerMinute: custom?.ratePerMinute ?? base.ratePerMinute,
    windowDays: custom?.windowDays ?? base.windowDays,
  };
}

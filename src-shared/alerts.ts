/**
 * Alert rules as data (zod), shared by the engine, the CLI and the renderer. Pure TypeScript.
 *
 * A rule watches one saved area (`areaId`) or every area (`areaId: null`), keeps the incidents its
 * `filter` keeps — the same shape and meaning as the one filter state (src-shared/filters.ts:
 * types, local time of day, local weekdays, text) — and fires on a condition:
 * - `any`: every new incident the filter keeps;
 * - `threshold`: the incident that brings the count in a rolling window of `days` up to `count`
 *   (again only after the count has dropped below it);
 * - `spike`: the last 7 days against the 8 weeks before, a one-sided conditional binomial test
 *   x ~ Bin(x + baseline, 1/9) at α = 0.01, at most once per rule, area and week (Monday weeks);
 * - `nearRepeat`: a new incident within `miles` of a previous incident of the same type that
 *   occurred at most `days` before it.
 * A paused rule is kept but not evaluated. Rules fire only for incidents that are new to the
 * archive from the API after the rule was saved, never for an area's first backfill or imports.
 */
import { z } from 'zod';
import { Filters } from './filters';

/** The parts of the one filter state a rule may use (dates and area come from the rule itself). */
export const AlertFilter = z
  .object({
    types: Filters.shape.types,
    hours: Filters.shape.hours,
    weekdays: Filters.shape.weekdays,
    text: Filters.shape.text,
  })
  .strict();
export type AlertFilter = z.infer<typeof AlertFilter>;

/** The spike test's fixed parameters (the definition; not user-tunable). */
export const SPIKE = {
  recentDays: 7,
  baselineDays: 56,
  /** Under a constant rate, a recent incident is one of x + baseline with probability 7 / 63. */
  share: 1 / 9,
  alpha: 0.01,
} as const;

export const ConditionKind = z.enum(['any', 'threshold', 'spike', 'nearRepeat']);

export const AlertCondition = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('any') }).strict(),
  z
    .object({
      kind: z.literal('threshold'),
      count: z.number().int().min(2).max(10_000),
      days: z.number().positive().max(365),
    })
    .strict(),
  z.object({ kind: z.literal('spike') }).strict(),
  z
    .object({
      kind: z.literal('nearRepeat'),
      miles: z.number().positive().max(10),
      days: z.number().positive().max(365),
    })
    .strict(),
]);
export type AlertCondition = z.infer<typeof AlertCondition>;

/** A rule as the user writes it (CLI `--rule FILE.json`, the rule editor). */
export const AlertRuleInput = z
  .object({
    name: z.string().trim().min(1).max(120),
    areaId: z.number().int().positive().nullable(),
    filter: AlertFilter.default({}),
    condition: AlertCondition,
    paused: z.boolean().default(false),
  })
  .strict();
export type AlertRuleInput = z.input<typeof AlertRuleInput>;
export type AlertRuleSpec = z.output<typeof AlertRuleInput>;

/** A saved rule. `activeFrom`: incidents first seen before it never fire the rule. */
export const AlertRule = AlertRuleInput.extend({
  id: z.number().int().positive(),
  activeFrom: z.number().int(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type AlertRule = z.output<typeof AlertRule>;

export const AlertNote = z.object({
  cdid: z.number().int(),
  kind: z.enum(['amended', 'removed', 'restored']),
  at: z.number().int(),
});
export type AlertNote = z.infer<typeof AlertNote>;

export const DeliveryChannel = z.enum(['webhook', 'email']);
export type DeliveryChannel = z.infer<typeof DeliveryChannel>;

export const DeliveryState = z.object({
  channel: DeliveryChannel,
  state: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  nextAttemptAt: z.number().int().nullable(),
  lastError: z.string().nullable(),
  deliveredAt: z.number().int().nullable(),
});
export type DeliveryState = z.infer<typeof DeliveryState>;

/** An alert: a row written in the sync commit that produced it. `id` is stable (Message-ID, idempotency key). */
export const Alert = z.object({
  id: z.string(),
  ruleId: z.number().int().nullable(),
  ruleName: z.string(),
  areaId: z.number().int().nullable(),
  condition: ConditionKind,
  cdids: z.array(z.number().int()),
  /** Condition details: the window's count, the spike's x, baseline and p, the near incidents. */
  detail: z.record(z.string(), z.unknown()),
  firedAt: z.number().int(),
  read: z.boolean(),
  notes: z.array(AlertNote),
  deliveries: z.array(DeliveryState),
});
export type Alert = z.infer<typeof Alert>;

/** What "test a rule against the archive" answers. */
export const RuleTestResult = z.object({
  days: z.number(),
  /** Alerts the rule would have raised (spike: weeks; others: firing incidents). */
  fired: z.number().int(),
  cdids: z.array(z.number().int()),
  /** Incidents the filter and area keep in those days. */
  matched: z.number().int(),
});
export type RuleTestResult = z.infer<typeof RuleTestResult>;

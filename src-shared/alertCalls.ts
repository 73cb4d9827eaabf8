/**
 * The alerts' contract calls: inputs and outputs (zod), used by contract.ts, the engine's handlers
 * (src-main/engine/handlers/alerts.ts), the CLI and the renderer. Pure TypeScript.
 *
 * Secrets: the webhook URL and the SMTP password go in (setAlertChannels) and never come back —
 * the view says only whether they are stored. The SMTP password is bound to the mail server's
 * whole address it was entered for (security, host and port): changing any part without
 * re-entering the password needs a confirmation
 * (`confirmAlertEmailHost`: Electron's main process asks in a dialog; the CLI's flag; the web
 * host re-enters the password), like the API key's base URL.
 */
import { z } from 'zod';
import { Alert, AlertRule, AlertRuleInput, DeliveryChannel, RuleTestResult } from './alerts';
import { mailPasswordDestination } from './secretDestination';

const RuleId = z.number().int().positive();

export const TestRuleInput = z
  .object({
    /** A rule not saved yet (the editor) or a saved one by id. */
    rule: AlertRuleInput.optional(),
    ruleId: RuleId.optional(),
    days: z.number().int().min(1).max(3650).default(90),
  })
  .strict()
  .refine((v) => (v.rule === undefined) !== (v.ruleId === undefined), {
    message: 'Give either a rule or a ruleId.',
  });

export const ListAlertsInput = z
  .object({
    limit: z.number().int().min(1).max(10_000).optional(),
    unreadOnly: z.boolean().optional(),
    /** Only the alerts these sync runs raised (the CLI's sync summary). */
    runIds: z.array(z.number().int()).max(1000).optional(),
  })
  .strict();

export const AlertList = z.object({ alerts: z.array(Alert), unread: z.number().int() });
export type AlertList = z.infer<typeof AlertList>;

/** What the page may know of the channels: never the URL or the password. */
export const AlertChannelsView = z.object({
  webhook: z.object({ enabled: z.boolean(), label: z.string(), urlStored: z.boolean() }),
  email: z.object({
    enabled: z.boolean(),
    config: z.record(z.string(), z.unknown()).nullable(),
    passwordStored: z.boolean(),
    /** False when the stored password was entered for another mail server than the one now set. */
    hostConfirmed: z.boolean(),
  }),
  /** Alerts are evaluated only while Blotter or a command-line sync runs. */
  note: z.string(),
});
export type AlertChannelsView = z.infer<typeof AlertChannelsView>;

export const EmailChannelInput = z
  .object({
    enabled: z.boolean(),
    /** engine/alerts/channels.ts EmailConfig: host, port, tls, user, from, to, mode, digestHour. */
    config: z.record(z.string(), z.unknown()),
    /** A new password (stored in the keychain, bound to config's tls, host and port); null removes it. */
    password: z.string().min(1).max(1000).nullable().optional(),
  })
  .strict();

export const WebhookChannelInput = z
  .object({
    enabled: z.boolean(),
    label: z.string().max(100).optional(),
    /** The URL, a secret (keychain); null removes it. Typing it is choosing where alerts go. */
    url: z.string().min(1).max(2000).nullable().optional(),
  })
  .strict();

export const SetAlertChannelsInput = z
  .object({ webhook: WebhookChannelInput.optional(), email: EmailChannelInput.optional() })
  .strict();

export const DeliveryLogEntry = z.object({
  deliveryId: z.number().int(),
  alertId: z.string(),
  ruleName: z.string(),
  channel: DeliveryChannel,
  at: z.number().int(),
  ok: z.boolean(),
  error: z.string().nullable(),
  durationMs: z.number().int(),
  /** The delivery's state now: a failed one can be retried. */
  state: z.enum(['pending', 'delivered', 'failed']),
});
export type DeliveryLogEntry = z.infer<typeof DeliveryLogEntry>;

export const alertCalls = {
  listAlertRules: { input: z.object({}).strict(), output: z.object({ rules: z.array(AlertRule) }) },
  /** Saves a rule: it fires only for incidents first seen after now. */
  addAlertRule: { input: z.object({ rule: AlertRuleInput }).strict(), output: AlertRule },
  updateAlertRule: { input: z.object({ id: RuleId, rule: AlertRuleInput }).strict(), output: AlertRule },
  setAlertRulePaused: { input: z.object({ id: RuleId, paused: z.boolean() }).strict(), output: AlertRule },
  /** Removes a rule; its alerts stay (they carry its name). */
  removeAlertRule: { input: z.object({ id: RuleId }).strict(), output: z.object({ removed: z.boolean() }) },
  /** "This rule would have fired N times in the last `days` days", against the archive. */
  testAlertRule: { input: TestRuleInput, output: RuleTestResult },
  /** Stops the running rule tests (their calls answer `cancelled`, "Test cancelled."); false when none runs. */
  cancelAlertRuleTest: { input: z.object({}).strict(), output: z.object({ cancelled: z.boolean() }) },
  /** The inbox, newest first, with the unread count. */
  listAlerts: { input: ListAlertsInput, output: AlertList },
  markAlertsRead: {
    input: z.object({ ids: z.array(z.string().max(100)).max(10_000) }).strict(),
    output: z.object({ changed: z.number().int(), unread: z.number().int() }),
  },
  getAlertChannels: { input: z.object({}).strict(), output: AlertChannelsView },
  setAlertChannels: { input: SetAlertChannelsInput, output: AlertChannelsView },
  /**
   * Lets the stored SMTP password go to the mail server at this whole address (host, port,
   * security). Electron: forwarded by the main process only after a dialog naming the address.
   * CLI: the flag. The web host is refused (it confirms by re-entering the password).
   */
  confirmAlertEmailHost: {
    input: z
      .object({
        host: z.string().trim().min(1).max(253),
        port: z.number().int().min(1).max(65535),
        tls: z.enum(['starttls', 'tls']),
      })
      .strict(),
    output: AlertChannelsView,
    confirmsSecret: mailPasswordDestination,
  },
  /** Every delivery attempt, newest first: failures shown, never silent. */
  listAlertDeliveries: {
    input: z.object({ limit: z.number().int().min(1).max(1000).optional() }).strict(),
    output: z.object({ entries: z.array(DeliveryLogEntry) }),
  },
  retryAlertDelivery: {
    input: z.object({ deliveryId: z.number().int().positive() }).strict(),
    output: z.object({ retried: z.boolean() }),
  },
} as const;

/** The engine's event after a sync commit wrote alerts (the inbox count, desktop notifications). */
export const AlertsChangedFields = z.object({
  unread: z.number().int(),
  raised: z.array(
    z.object({
      id: z.string(),
      ruleName: z.string(),
      areaId: z.number().int().nullable(),
      incidents: z.number().int(),
    }),
  ),
});

export const ALERTS_RUN_NOTE =
  'Alerts are checked only while Blotter is open or a command-line sync runs (blotter sync): there is no server watching while both are closed.';

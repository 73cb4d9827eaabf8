/**
 * Alerts: rules, the rule test, the inbox, delivery channels and their log — translated to the
 * engine's alerts service (engine/alerts/service.ts; built once in services.ts).
 */
import type { HandlerGroup } from './handler';

export const alertHandlers = {
  listAlertRules: async (_input, ctx) => ({ rules: ctx.services.alerts.rules.list() }),
  addAlertRule: async ({ rule }, ctx) => ctx.services.alerts.addRule(rule),
  updateAlertRule: async ({ id, rule }, ctx) => ctx.services.alerts.updateRule(id, rule),
  setAlertRulePaused: async ({ id, paused }, ctx) => ctx.services.alerts.setPaused(id, paused),
  removeAlertRule: async ({ id }, ctx) => ({ removed: ctx.services.alerts.removeRule(id) }),
  testAlertRule: async (input, ctx) => ctx.services.alerts.testRule(input),
  cancelAlertRuleTest: async (_input, ctx) => ({ cancelled: ctx.services.alerts.cancelTest() }),
  listAlerts: async (input, ctx) => ctx.services.alerts.list(input),
  markAlertsRead: async ({ ids }, ctx) => {
    const result = ctx.services.alerts.markRead(ids);
    if (result.changed > 0) ctx.emit({ type: 'alertsChanged', unread: result.unread, raised: [] });
    return result;
  },
  getAlertChannels: async (_input, ctx) => ctx.services.alerts.channels(),
  setAlertChannels: async (input, ctx) => ctx.services.alerts.setChannels(input),
  confirmAlertEmailHost: async (to, ctx) => ctx.services.alerts.confirmEmailHost(to),
  listAlertDeliveries: async ({ limit }, ctx) => ({ entries: ctx.services.alerts.deliveryLog(limit) }),
  retryAlertDelivery: async ({ deliveryId }, ctx) => ({ retried: ctx.services.alerts.retry(deliveryId) }),
} satisfies HandlerGroup;

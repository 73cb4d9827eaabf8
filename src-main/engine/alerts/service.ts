/**
 * The engine's alerts service, built once in services.ts: the rule store, the inbox, the delivery
 * channels and their secrets, and the delivery worker (started with the engine, stopped at close).
 *
 * Where alerts are raised: inside the sync's page commit (`onPageCommitted`, which services.ts
 * gives the sync as its page hook: sync/runTypes.ts PageCommitted) and inside an office pull's page
 * (`onIncidentsPulled`, the office service's pull hook) — neither the sync nor the office imports
 * the alerts.
 *
 * `alertsChanged`: the evaluation writes alerts inside those commits, and every commit that inserts incidents is followed by the engine's `incidentsChanged`. The
 * service is told of those (`afterIncidentsChanged`) and looks for alerts past the last id it
 * announced — one indexed read — so the sync needs no call of ours and another process's sync
 * (a CLI sync on the same folder) is announced too, at the next change the views are told of.
 *
 * The webhook POST needs a fetch with a body: Node's own (the host's fetch bridge carries GETs).
 */
import type { AlertChannelsView, AlertList, DeliveryLogEntry } from '../../../src-shared/alertCalls';
import { ALERTS_RUN_NOTE } from '../../../src-shared/alertCalls';
import type { AlertRuleSpec, RuleTestResult } from '../../../src-shared/alerts';
import type { EngineEvent } from '../../../src-shared/contract';
import type { PostFetch } from '../api/outboundAddress';
import type { EngineCore } from '../core';
import type { Db } from '../store/database';
import { EngineError } from '../errors';
import { evaluateAlerts, type CommitWritten } from './evaluate';
import { evaluatePulled, type PulledRow } from './pulled';
import { emailConfig, EmailConfig, setChannel, smtpPasswordAccount, webhookAccount } from './channels';
import { createAlertDelivery, type AlertDelivery } from './deliver';
import { listAlerts, markRead, unreadCount } from './inbox';
import { bindPassword, ensureMailBound, mailAddressText, passwordMayGoTo } from './mailAddress';
import { retryDelivery } from './queue';
import { createRuleStore, parseRule, RuleProblem, withKnownTypes, type RuleStore } from './rules';
import { testRuleOffThread } from './ruleTestThread';

export type AlertsServiceOptions = {
  /** Node's fetch unless a test passes its own. */
  postFetch?: PostFetch;
  now?: () => number;
  /** How often the worker looks for due deliveries. */
  deliveryIntervalMs?: number;
};

type AlertsChanged = Extract<EngineEvent, { type: 'alertsChanged' }>;

const nodePost: PostFetch = (url, init) => fetch(url, init);

export function createAlertsService(
  core: Pick<EngineCore, 'db' | 'settings' | 'secrets' | 'log' | 'host'>,
  options: AlertsServiceOptions = {},
) {
  const { db } = core;
  const now = options.now ?? Date.now;
  const rules: RuleStore = createRuleStore(db);
  /** The rule tests running now (cancelTest ends them). */
  const runningTests = new Set<AbortController>();
  const profileId = core.settings.profileId();
  const delivery: AlertDelivery = createAlertDelivery({
    db,
    secrets: core.secrets,
    profileId,
    fetch: options.postFetch ?? nodePost,
    now,
    log: core.log,
  });
  const maxAlertId = () =>
    (db.prepare('SELECT coalesce(max(id), 0) AS id FROM alerts').get() as { id: number }).id;
  let announced = maxAlertId();

  const ruleCall = <T>(f: () => T): T => {
    try {
      return f();
    } catch (error) {
      if (error instanceof RuleProblem)
        // Paths as the contract names them (the call's input holds the rule under `rule`).
        throw new EngineError(
          'bad_input',
          error.message,
          error.issues.map((i) => ({ path: `rule.${i.path}`, message: i.message })),
        );
      throw error;
    }
  };

  async function channels(): Promise<AlertChannelsView> {
    type Row = { channel: 'webhook' | 'email'; enabled: number; config: string };
    const rows = db.prepare<[], Row>('SELECT channel, enabled, config FROM alert_channels').all();
    const webhookRow = rows.find((r) => r.channel === 'webhook');
    const emailRow = rows.find((r) => r.channel === 'email');
    const stored = async (account: string) => {
      try {
        return (await core.secrets.get(account)) !== null;
      } catch {
        return false;
      }
    };
    const config = emailConfig(db);
    const passwordStored = await stored(smtpPasswordAccount(profileId));
    const label = webhookRow ? (JSON.parse(webhookRow.config) as { label?: string }).label : undefined;
    return {
      webhook: {
        enabled: webhookRow?.enabled === 1,
        label: label ?? 'Webhook',
        urlStored: await stored(webhookAccount(profileId)),
      },
      email: {
        enabled: emailRow?.enabled === 1,
        config: config as Record<string, unknown> | null,
        passwordStored,
        hostConfirmed: !passwordStored || !config || passwordMayGoTo(db, config),
      },
      note: ALERTS_RUN_NOTE,
    };
  }

  return {
    rules,
    delivery,
    start(): void {
      delivery.start(options.deliveryIntervalMs);
    },
    stop(): Promise<void> {
      return delivery.stop();
    },

    /** The sync's page hook: this folder's rules on one page, inside its transaction (evaluate.ts). */
    onPageCommitted(tx: Db, written: CommitWritten): void {
      evaluateAlerts(tx, written);
    },
    /** The office pull's hook: the incidents a pulled page brought, as a sync's commit (pulled.ts). */
    onIncidentsPulled(tx: Db, fresh: readonly PulledRow[]): void {
      evaluatePulled(tx, fresh);
    },

    /** After a commit changed incidents: announce the alerts written since the last announcement. */
    afterIncidentsChanged(emit: (event: AlertsChanged) => void): void {
      const last = announced;
      const rows = db
        .prepare<
          [number],
          { id: number; uid: string; rule_name: string; area_id: number | null; cdids: string }
        >('SELECT id, uid, rule_name, area_id, cdids FROM alerts WHERE id > ? ORDER BY id')
        .all(last);
      if (rows.length === 0) return;
      announced = rows[rows.length - 1]!.id;
      emit({
        type: 'alertsChanged',
        unread: unreadCount(db),
        raised: rows.map((r) => ({
          id: r.uid,
          ruleName: r.rule_name,
          areaId: r.area_id,
          incidents: (JSON.parse(r.cdids) as number[]).length,
        })),
      });
      // A new alert may have deliveries due now: do not wait for the next tick.
      void delivery
        .runDue()
        .catch((error: unknown) => core.log.error('alert delivery round failed', { error: String(error) }));
    },

    addRule: (rule: unknown) => ruleCall(() => rules.add(rule, now())),
    updateRule: (id: number, rule: unknown) => ruleCall(() => rules.update(id, rule, now())),
    setPaused: (id: number, paused: boolean) => ruleCall(() => rules.setPaused(id, paused, now())),
    removeRule: (id: number) => rules.remove(id),

    /** On a helper thread (ruleTestThread.ts): the engine answers other calls meanwhile. */
    async testRule(input: { rule?: unknown; ruleId?: number; days: number }): Promise<RuleTestResult> {
      let spec: AlertRuleSpec;
      if (input.ruleId !== undefined) {
        const saved = rules.get(input.ruleId);
        if (!saved) throw new EngineError('not_found', `There is no alert rule ${input.ruleId}.`);
        spec = saved;
      } else {
        spec = ruleCall(() => withKnownTypes(db, parseRule(input.rule)));
      }
      const controller = new AbortController();
      runningTests.add(controller);
      try {
        return await testRuleOffThread(db, spec, input.days, now(), controller.signal);
      } finally {
        runningTests.delete(controller);
      }
    },

    /** Ends the running rule tests' threads at once (their calls answer `cancelled`); false when none runs. */
    cancelTest(): boolean {
      if (runningTests.size === 0) return false;
      for (const c of runningTests) c.abort(new EngineError('cancelled', 'Test cancelled.'));
      runningTests.clear();
      return true;
    },

    list(opts: { limit?: number; unreadOnly?: boolean; runIds?: number[] }): AlertList {
      let alerts = listAlerts(db, { limit: opts.runIds ? 10_000 : opts.limit, unreadOnly: opts.unreadOnly });
      if (opts.runIds) {
        const uids = new Set(
          db
            .prepare<[string], { uid: string }>(
              'SELECT uid FROM alerts WHERE run_id IN (SELECT value FROM json_each(?))',
            )
            .all(JSON.stringify(opts.runIds))
            .map((r) => r.uid),
        );
        alerts = alerts.filter((a) => uids.has(a.id)).slice(0, opts.limit ?? 10_000);
      }
      return { alerts, unread: unreadCount(db) };
    },
    markRead(ids: readonly string[]) {
      const changed = markRead(db, ids, now());
      return { changed, unread: unreadCount(db) };
    },

    channels,
    async setChannels(input: {
      webhook?: { enabled: boolean; label?: string; url?: string | null };
      email?: { enabled: boolean; config: Record<string, unknown>; password?: string | null };
    }): Promise<AlertChannelsView> {
      const at = now();
      if (input.webhook) {
        const w = input.webhook;
        if (w.url) {
          // The URL is the secret and the address at once: typing it is choosing where alerts go.
          try {
            const u = new URL(w.url);
            if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('scheme');
          } catch {
            throw new EngineError('bad_input', 'The webhook URL is not a web address (https://…).', [
              { path: 'webhook.url', message: 'not a web address' },
            ]);
          }
          await core.secrets.set(webhookAccount(profileId), w.url);
        } else if (w.url === null) await core.secrets.delete(webhookAccount(profileId));
        setChannel(db, 'webhook', { label: w.label ?? 'Webhook' }, w.enabled, at);
      }
      if (input.email) {
        const e = input.email;
        const parsed = EmailConfig.safeParse(e.config);
        if (!parsed.success) {
          const issues = parsed.error.issues.map((i) => ({
            path: `email.config.${i.path.join('.')}`,
            message: i.message,
          }));
          throw new EngineError(
            'bad_input',
            `The mail settings are not complete: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
            issues,
          );
        }
        // The password is bound to the server's whole address: another port or security is another server.
        ensureMailBound(db);
        if (e.password) {
          await core.secrets.set(smtpPasswordAccount(profileId), e.password);
          bindPassword(db, parsed.data);
        } else if (e.password === null) {
          await core.secrets.delete(smtpPasswordAccount(profileId));
          bindPassword(db, null);
        } else if (
          parsed.data.user &&
          !passwordMayGoTo(db, parsed.data) &&
          (await core.secrets.get(smtpPasswordAccount(profileId))) !== null
        ) {
          const to = mailAddressText(parsed.data);
          throw new EngineError(
            'base_url_unconfirmed',
            `The stored mail password was entered for another mail server address; Blotter does not send it to ${to} until you confirm. ${
              core.host === 'electron'
                ? 'Confirm the new server when asked.'
                : core.host === 'cli'
                  ? 'Give --smtp-host with the new server to confirm it.'
                  : 'Enter the password again with the new server.'
            }`,
          );
        }
        setChannel(db, 'email', parsed.data, e.enabled, at);
      }
      return channels();
    },
    /**
     * The caller (Electron's dialog naming the address, the CLI's flag) confirmed that the stored
     * password may go to the mail server `to` — host, port and security, the address it names.
     */
    async confirmEmailHost(to: {
      host: string;
      port: number;
      tls: 'starttls' | 'tls';
    }): Promise<AlertChannelsView> {
      if (core.host === 'web')
        throw new EngineError(
          'base_url_unconfirmed',
          'In the browser, confirm a new mail server by entering its password again.',
        );
      ensureMailBound(db);
      bindPassword(db, to);
      core.log.info('mail server confirmed for the SMTP password', { server: mailAddressText(to) });
      return channels();
    },

    deliveryLog(limit = 200): DeliveryLogEntry[] {
      type Row = {
        delivery_id: number;
        uid: string;
        rule_name: string;
        channel: 'webhook' | 'email';
        at: number;
        ok: number;
        error: string | null;
        duration_ms: number;
        state: 'pending' | 'delivered' | 'failed';
      };
      return db
        .prepare<[number], Row>(
          `SELECT l.delivery_id, a.uid, a.rule_name, d.channel, l.at, l.ok, l.error, l.duration_ms, d.state
             FROM alert_delivery_log l
             JOIN alert_deliveries d ON d.id = l.delivery_id
             JOIN alerts a ON a.id = d.alert_id
            ORDER BY l.at DESC, l.id DESC LIMIT ?`,
        )
        .all(limit)
        .map((r) => ({
          deliveryId: r.delivery_id,
          alertId: r.uid,
          ruleName: r.rule_name,
          channel: r.channel,
          at: r.at,
          ok: r.ok === 1,
          error: r.error,
          durationMs: r.duration_ms,
          state: r.state,
        }));
    },
    retry(deliveryId: number): boolean {
      const retried = retryDelivery(db, deliveryId, now());
      if (retried) void delivery.runDue().catch(() => undefined);
      return retried;
    },
  };
}

export type AlertsService = ReturnType<typeof createAlertsService>;

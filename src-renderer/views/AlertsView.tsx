/**
 * Alerts: the inbox (newest first, unread marked; each alert opens its incidents on the map) and the
 * rules (new, edit with a test against the archive before saving, pause, remove). Alerts are checked
 * only while Blotter or a command-line sync runs; the view says so. In the web host it asks, on a
 * click, to show desktop notifications.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { ALERTS_RUN_NOTE } from '../../src-shared/alertCalls';
import type { Alert, AlertRule } from '../../src-shared/alerts';
import { useAlertInbox } from '../alerts/AlertInbox';
import { AlertList } from '../alerts/AlertList';
import { DeliverySettings } from '../alerts/DeliverySettings';
import { ReportSchedules } from '../alerts/ReportSchedules';
import { RemoveRuleConfirm } from '../alerts/RemoveRuleConfirm';
import { RuleForm } from '../alerts/RuleForm';
import { RuleList } from '../alerts/RuleList';
import { useFilters } from '../filters/FiltersContext';
import { DisabledReason } from '../shell/InlineMessage';
import { ViewFrame } from '../shell/ViewFrame';
import { useWorkspace } from '../workspace/WorkspaceContext';
import type { DataViewProps } from './viewProps';
import styles from '../alerts/alerts.module.css';

const INTRO = 'Rules that watch your areas, and the alerts they raised.';

function describeCondition(rule: AlertRule): string {
  const c = rule.condition;
  switch (c.kind) {
    case 'any':
      return 'any new incident';
    case 'threshold':
      return `${c.count} or more within ${c.days} days`;
    case 'spike':
      return 'a spike against the 8 weeks before';
    case 'nearRepeat':
      return `a repeat within ${c.miles} mi and ${c.days} days`;
  }
}

export function AlertsView({ setup }: DataViewProps) {
  const { client, areas } = useWorkspace();
  const inbox = useAlertInbox();
  const { update } = useFilters();
  const [alerts, setAlerts] = useState<Alert[] | null>(null);
  const [rules, setRules] = useState<AlertRule[] | null>(null);
  const [editing, setEditing] = useState<AlertRule | 'new' | null>(null);
  const [removing, setRemoving] = useState<AlertRule | null>(null);
  const rulesRef = useRef<HTMLElement>(null);
  const [error, setError] = useState<string | null>(null);
  const { setUnread } = inbox;

  const reload = useCallback(async () => {
    try {
      const [list, ruleList] = await Promise.all([
        client.call('listAlerts', { limit: 200 }),
        client.call('listAlertRules', {}),
      ]);
      setAlerts(list.alerts);
      setUnread(list.unread);
      setRules(ruleList.rules);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  }, [client, setUnread]);

  useEffect(() => {
    void reload();
  }, [reload, inbox.version]);

  const act = async (f: () => Promise<unknown>) => {
    setError(null);
    try {
      await f();
      await reload();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  const openOnMap = (alert: Alert) =>
    act(async () => {
      update({ cdids: alert.cdids, preset: 'all', from: undefined, to: undefined });
      if (!alert.read) await client.call('markAlertsRead', { ids: [alert.id] });
      window.location.hash = '#/map';
    });

  const areaName = (id: number | null) =>
    id === null ? 'All areas' : (areas?.find((a) => a.id === id)?.name ?? `Area ${id}`);
  const unreadIds = (alerts ?? []).filter((a) => !a.read).map((a) => a.id);
  const watches = (r: AlertRule) =>
    `${areaName(r.areaId)} · ${describeCondition(r)}${r.filter.types?.length ? ` · ${r.filter.types.join(', ')}` : ''}`;

  const removeRule = async (rule: AlertRule) => {
    await client.call('removeAlertRule', { id: rule.id });
    if (editing !== 'new' && editing?.id === rule.id) setEditing(null);
    // The list without it first, so focus does not go back to its vanishing button.
    await reload();
    setRemoving(null);
  };

  return (
    <ViewFrame title="Alerts" intro={INTRO}>
      <p className={styles.note} role="note">
        {ALERTS_RUN_NOTE}
      </p>
      {setup ? (
        <p className="muted">
          <strong>{setup.title}.</strong> {setup.text}
        </p>
      ) : null}
      {inbox.permission === 'default' ? (
        <p>
          <button type="button" className="button" onClick={() => void inbox.askPermission()}>
            Show desktop notifications for new alerts
          </button>
        </p>
      ) : inbox.permission === 'denied' ? (
        <p className="muted">Desktop notifications are blocked for this page in the browser’s settings.</p>
      ) : null}
      {error ? (
        <p className="message-error" role="alert">
          {error}
        </p>
      ) : null}

      <section className={styles.section} aria-labelledby="alerts-inbox">
        <h2 id="alerts-inbox">
          Inbox <span className="muted">({inbox.unread} unread)</span>
        </h2>
        {unreadIds.length > 0 ? (
          <button
            type="button"
            className="link-button"
            onClick={() => void act(() => client.call('markAlertsRead', { ids: unreadIds }))}
          >
            Mark all read
          </button>
        ) : null}
        {alerts === null ? (
          <p className="muted" role="status">
            Loading alerts…
          </p>
        ) : alerts.length === 0 ? (
          <p className="muted">
            No alerts yet. A rule raises one when a sync brings new incidents that match it.
          </p>
        ) : (
          <AlertList
            alerts={alerts}
            areaName={areaName}
            onShow={(alert) => void openOnMap(alert)}
            onRead={(alert) => void act(() => client.call('markAlertsRead', { ids: [alert.id] }))}
          />
        )}
      </section>

      <section className={styles.section} aria-labelledby="alerts-rules" ref={rulesRef}>
        <h2 id="alerts-rules">Rules</h2>
        {editing === null ? (
          <>
            <button
              type="button"
              className="button"
              onClick={() => setEditing('new')}
              disabled={areas === null}
              aria-describedby={areas === null ? 'alerts-new-rule-why' : undefined}
            >
              New rule
            </button>
            <DisabledReason
              id="alerts-new-rule-why"
              reason={areas === null ? 'Loading your areas: a rule watches one of them or all.' : null}
            />
          </>
        ) : (
          <RuleForm
            key={editing === 'new' ? 'new' : editing.id}
            client={client}
            areas={areas ?? []}
            rule={editing === 'new' ? null : editing}
            onSaved={() => {
              setEditing(null);
              void reload();
            }}
            onCancel={() => setEditing(null)}
          />
        )}
        {rules && rules.length > 0 ? (
          <RuleList
            rules={rules}
            watches={watches}
            onEdit={setEditing}
            onPause={(r) =>
              void act(() => client.call('setAlertRulePaused', { id: r.id, paused: !r.paused }))
            }
            onRemove={setRemoving}
          />
        ) : rules ? (
          <p className="muted">No rules yet.</p>
        ) : null}
        {removing ? (
          <RemoveRuleConfirm
            rule={removing}
            watches={watches(removing)}
            onRemove={() => removeRule(removing)}
            onCancel={() => setRemoving(null)}
            // Its Remove button went with it: the section's first action (New rule, or the form's).
            fallbackFocus={() => rulesRef.current?.querySelector<HTMLElement>('button:not([disabled])')}
          />
        ) : null}
      </section>
      <DeliverySettings client={client} host={inbox.host} />
      <ReportSchedules client={client} />
    </ViewFrame>
  );
}

/**
 * Removing an alert rule, confirmed: names the rule and what it watches, and says what stays (the
 * alerts it already raised keep their place in the inbox, under its name).
 */
import type { AlertRule } from '../../src-shared/alerts';
import { ConfirmDialog } from '../shell/ConfirmDialog';
import { useConfirmedAction } from '../shell/useConfirmedAction';

export type RemoveRuleConfirmProps = {
  rule: AlertRule;
  /** What it watches, in words: "Downtown · 3 or more within 7 days · Burglary". */
  watches: string;
  /** Removes it (the call and what follows); a failure is shown in the dialog. */
  onRemove: () => Promise<void>;
  onCancel: () => void;
  fallbackFocus?: () => HTMLElement | null | undefined;
};

export function RemoveRuleConfirm({
  rule,
  watches,
  onRemove,
  onCancel,
  fallbackFocus,
}: RemoveRuleConfirmProps) {
  const { busy, problem, run: remove } = useConfirmedAction(onRemove);

  return (
    <ConfirmDialog
      title={`Remove the rule “${rule.name}”?`}
      confirmLabel="Remove rule"
      busyLabel="Removing…"
      busy={busy}
      danger
      onConfirm={remove}
      onCancel={onCancel}
      fallbackFocus={fallbackFocus}
      testId="remove-rule"
    >
      <p>
        It stops watching {watches} and raises no more alerts; Pause stops it for a while instead. The alerts
        it already raised stay in the inbox.
      </p>
      {problem ? (
        <p className="message-error" role="alert">
          {problem}
        </p>
      ) : null}
    </ConfirmDialog>
  );
}

/**
 * The rule form's Test button and, while a test runs, its Cancel (issue 31): a near-repeat test
 * over a year's archive lasts seconds. Cancel ends the engine's test (`cancelAlertRuleTest`); the
 * test's call then answers "Test cancelled.", which the form shows beside its buttons.
 */
import { useState } from 'react';
import type { AlertRuleInput, RuleTestResult } from '../../src-shared/alerts';
import type { Client } from '../bridge/client';

/** The two calls: a test of `rule` over the last `days` days, and its Cancel (errors of Cancel ignored). */
export function ruleTestCalls(client: Pick<Client, 'call'>) {
  return {
    run: (rule: AlertRuleInput, days: number): Promise<RuleTestResult> =>
      client.call('testAlertRule', { rule, days }),
    cancel: (): Promise<void> =>
      client.call('cancelAlertRuleTest', {}).then(
        () => undefined,
        () => undefined,
      ),
  };
}

/** A rule test the form runs: `testing` while it does, `cancel` to stop it. */
export function useRuleTest(client: Client) {
  const [testing, setTesting] = useState(false);
  const calls = ruleTestCalls(client);
  return {
    testing,
    cancel: () => void calls.cancel(),
    async test(rule: AlertRuleInput, days: number): Promise<RuleTestResult> {
      setTesting(true);
      try {
        return await calls.run(rule, days);
      } finally {
        setTesting(false);
      }
    },
  };
}

export function RuleTestButton({
  testing,
  disabled,
  describedBy,
  days,
  onTest,
  onCancel,
}: {
  testing: boolean;
  disabled: boolean;
  /** The id of the words saying why the button is off, when it is. */
  describedBy: string | undefined;
  days: number;
  onTest: () => void;
  onCancel: () => void;
}) {
  if (testing) {
    return (
      <>
        <span role="status" data-testid="rule-testing">
          Testing against the last {days} days…
        </span>
        <button type="button" className="button" onClick={onCancel}>
          Cancel test
        </button>
      </>
    );
  }
  return (
    <button
      type="button"
      className="button"
      onClick={onTest}
      disabled={disabled}
      aria-describedby={describedBy}
    >
      Test against the last {days} days
    </button>
  );
}

import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Client } from '../bridge/client';
import { RuleTestButton, ruleTestCalls } from './RuleTestButton';

const render = (testing: boolean, disabled = false) =>
  renderToStaticMarkup(
    <RuleTestButton
      testing={testing}
      disabled={disabled}
      describedBy={disabled ? 'why' : undefined}
      days={90}
      onTest={() => undefined}
      onCancel={() => undefined}
    />,
  );

/** The buttons' markup, each as one string. */
const buttons = (html: string) => html.match(/<button[^>]*>[^<]*<\/button>/g) ?? [];

describe('the rule test button', () => {
  it('offers the test while none runs, off (and saying why) when blocked', () => {
    expect(buttons(render(false))).toEqual([
      '<button type="button" class="button">Test against the last 90 days</button>',
    ]);
    expect(buttons(render(false, true))).toEqual([
      '<button type="button" class="button" disabled="" aria-describedby="why">Test against the last 90 days</button>',
    ]);
  });

  it('while a test runs, says so and offers an enabled Cancel instead', () => {
    const html = render(true);
    expect(buttons(html)).toEqual(['<button type="button" class="button">Cancel test</button>']);
    expect(html).toMatch(/role="status"[^>]*>Testing against the last 90 days…</);
  });
});

describe('the rule test calls', () => {
  const fake = (fail: boolean) => {
    const calls: [string, unknown][] = [];
    const client = {
      call: (name: string, input: unknown) => {
        calls.push([name, input]);
        return fail ? Promise.reject(new Error('engine gone')) : Promise.resolve({ cancelled: true });
      },
    } as unknown as Pick<Client, 'call'>;
    return { calls, client };
  };

  it('Cancel asks the engine to stop the running test', async () => {
    const { calls, client } = fake(false);
    await ruleTestCalls(client).cancel();
    expect(calls).toEqual([['cancelAlertRuleTest', {}]]);
  });

  it("a Cancel the engine refuses is not the form's error (the test's own answer says what happened)", async () => {
    const { calls, client } = fake(true);
    await expect(ruleTestCalls(client).cancel()).resolves.toBeUndefined();
    expect(calls).toHaveLength(1);
  });

  it('the test asks for the rule over the days given', async () => {
    const { calls, client } = fake(false);
    const rule = { name: 'R', areaId: 1, filter: {}, condition: { kind: 'any' as const } };
    await ruleTestCalls(client).run(rule, 90);
    expect(calls).toEqual([['testAlertRule', { rule, days: 90 }]]);
  });
});

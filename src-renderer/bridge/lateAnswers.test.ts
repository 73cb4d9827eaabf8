import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../src-shared/contract';
import { BridgeCallError } from './client';
import { hostHook } from './testHookHost';
import { useCall, useCurrentEffect, useNewest, type Current } from './useCall';
import { useEngineEvent } from './useEngineEvent';

/** A promise settled by the test, in whatever order the test needs. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** An engine that answers each question only when the test says so. */
function slowEngine() {
  const asked: { question: string; answer: ReturnType<typeof deferred<string>> }[] = [];
  const ask = (question: string) => {
    const answer = deferred<string>();
    asked.push({ question, answer });
    return answer.promise;
  };
  return { asked, ask };
}

describe('useCall', () => {
  it('shows the answer to its inputs and says it is loading until then', async () => {
    const engine = slowEngine();
    const host = await hostHook(({ q }: { q: string }) => useCall(() => engine.ask(q), [q]), { q: 'a' });
    expect(host.value).toMatchObject({ data: null, error: null, loading: true });
    engine.asked[0]!.answer.resolve('answer to a');
    await host.settle();
    expect(host.value).toMatchObject({ data: 'answer to a', error: null, loading: false });
    await host.unmount();
  });

  it('drops a late answer to older inputs once newer ones were asked', async () => {
    const engine = slowEngine();
    const host = await hostHook(({ q }: { q: string }) => useCall(() => engine.ask(q), [q]), { q: 'a' });
    await host.render({ q: 'b' });
    expect(engine.asked.map((x) => x.question)).toEqual(['a', 'b']);
    engine.asked[1]!.answer.resolve('answer to b');
    await host.settle();
    engine.asked[0]!.answer.resolve('answer to a'); // the older question answers last
    await host.settle();
    expect(host.value).toMatchObject({ data: 'answer to b', loading: false });
    // And an older failure arriving late does not replace the newer answer either.
    await host.render({ q: 'c' });
    await host.render({ q: 'd' });
    engine.asked[3]!.answer.resolve('answer to d');
    engine.asked[2]!.answer.reject(new BridgeCallError('getAppInfo', { code: 'offline', message: '' }));
    await host.settle();
    expect(host.value).toMatchObject({ data: 'answer to d', error: null, loading: false });
    await host.unmount();
  });

  it('keeps an error in words', async () => {
    const engine = slowEngine();
    const host = await hostHook(() => useCall(() => engine.ask('x'), []), {});
    engine.asked[0]!.answer.reject(new BridgeCallError('getAppInfo', { code: 'not_found', message: '' }));
    await host.settle();
    expect(host.value).toMatchObject({ data: null, error: 'That item no longer exists.', loading: false });
    engine.asked.length = 0;
    await host.act(() => host.value.reload());
    engine.asked[0]!.answer.reject(new Error('a bug, not an engine error'));
    await host.settle();
    expect(host.value.error).toBe('Blotter hit an unexpected problem.');
    await host.unmount();
  });

  it('asks again on reload, and not at all while disabled', async () => {
    const engine = slowEngine();
    const host = await hostHook(({ on }: { on: boolean }) => useCall(() => engine.ask('x'), [], on), {
      on: false,
    });
    expect(engine.asked).toHaveLength(0);
    expect(host.value.loading).toBe(false);
    await host.render({ on: true });
    engine.asked[0]!.answer.resolve('first');
    await host.settle();
    await host.act(() => host.value.reload());
    expect(engine.asked).toHaveLength(2);
    expect(host.value).toMatchObject({ data: 'first', loading: true }); // the last answer stays while loading
    engine.asked[1]!.answer.resolve('second');
    await host.settle();
    expect(host.value).toMatchObject({ data: 'second', loading: false });
    await host.unmount();
  });
});

describe('useCurrentEffect', () => {
  it('tells a late answer it is stale after newer inputs or unmount, and runs the cleanup', async () => {
    const seen: string[] = [];
    const checks: { q: string; current: Current }[] = [];
    const host = await hostHook(
      ({ q }: { q: string }) =>
        useCurrentEffect(
          (current) => {
            checks.push({ q, current });
            return () => seen.push(`cleanup ${q}`);
          },
          [q],
        ),
      { q: 'a' },
    );
    expect(checks[0]!.current()).toBe(true);
    await host.render({ q: 'a' }); // same inputs: no new run
    expect(checks).toHaveLength(1);
    await host.render({ q: 'b' });
    expect(checks.map((c) => [c.q, c.current()])).toEqual([
      ['a', false],
      ['b', true],
    ]);
    await host.unmount();
    expect(checks[1]!.current()).toBe(false);
    expect(seen).toEqual(['cleanup a', 'cleanup b']);
  });
});

describe('useNewest', () => {
  it('keeps only the newest request made on demand, and none once the component went', async () => {
    const host = await hostHook(() => useNewest(), {});
    const first = host.value();
    expect(first()).toBe(true);
    const second = host.value();
    expect([first(), second()]).toEqual([false, true]);
    await host.render({}); // a render is not a new request
    expect(second()).toBe(true);
    await host.unmount();
    expect(second()).toBe(false);
  });
});

describe('useEngineEvent', () => {
  function fakeEvents() {
    const listeners = new Set<(event: EngineEvent) => void>();
    return {
      listeners,
      onEvent: (listener: (event: EngineEvent) => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      send: (event: EngineEvent) => listeners.forEach((l) => l(event)),
    };
  }

  it('hands the named events to the latest listener, and stops listening on unmount', async () => {
    const events = fakeEvents();
    const heard: string[] = [];
    const host = await hostHook(
      ({ who }: { who: string }) =>
        useEngineEvent(events, ['incidentsChanged', 'archiveReading'], (event) =>
          heard.push(`${who}: ${event.type}`),
        ),
      { who: 'first' },
    );
    events.send({ type: 'incidentsChanged' });
    events.send({ type: 'connectivity', online: true }); // not named: not heard
    await host.render({ who: 'second' });
    expect(events.listeners.size).toBe(1); // a new listener is not a new subscription
    events.send({ type: 'archiveReading', done: 1, total: 2 });
    expect(heard).toEqual(['first: incidentsChanged', 'second: archiveReading']);
    await host.unmount();
    expect(events.listeners.size).toBe(0);
  });
});

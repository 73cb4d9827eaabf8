import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../src-shared/contract';
import { createEventStream, retryDelay, type EventSourceLike } from './eventStream';

class FakeSource implements EventSourceLike {
  readyState = 0;
  closed = false;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((message: MessageEvent<string>) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  constructor(readonly url: string) {}
  close(): void {
    this.closed = true;
    this.readyState = 2;
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  send(data: unknown): void {
    this.onmessage?.(
      new MessageEvent('message', { data: typeof data === 'string' ? data : JSON.stringify(data) }),
    );
  }
  /** The host dropped the stream for good: the browser gives up and reports an error. */
  fail(): void {
    this.readyState = 2;
    this.onerror?.(new Event('error'));
  }
}

function harness() {
  const sources: FakeSource[] = [];
  const timers: { fn: () => void; ms: number; cancelled: boolean }[] = [];
  const invalid: string[] = [];
  const stream = createEventStream({
    url: '/api/events',
    open: (url) => {
      const source = new FakeSource(url);
      sources.push(source);
      return source;
    },
    schedule: (fn, ms) => {
      const timer = { fn, ms, cancelled: false };
      timers.push(timer);
      return () => {
        timer.cancelled = true;
      };
    },
    onInvalid: (data) => invalid.push(data),
  });
  return { stream, sources, timers, invalid };
}

const online: EngineEvent = { type: 'connectivity', online: true };

describe('event stream', () => {
  it('opens one stream for the first listener and delivers contract events to every listener', () => {
    const { stream, sources } = harness();
    const a: EngineEvent[] = [];
    const b: EngineEvent[] = [];
    stream.subscribe((e) => a.push(e));
    stream.subscribe((e) => b.push(e));
    expect(sources).toHaveLength(1);
    expect(sources[0]?.url).toBe('/api/events');

    sources[0]?.open();
    sources[0]?.send(online);
    const resync: EngineEvent = { type: 'incidentsChanged' };
    expect(a).toEqual([resync, online]);
    expect(b).toEqual([resync, online]);
  });

  it('tells listeners to re-query whenever the stream (re)connects, since missed events are lost', () => {
    const { stream, sources, timers } = harness();
    const got: EngineEvent[] = [];
    stream.subscribe((e) => got.push(e));
    sources[0]?.open();
    sources[0]?.fail();
    timers[0]?.fn();
    sources[1]?.open();
    expect(got).toEqual([{ type: 'incidentsChanged' }, { type: 'incidentsChanged' }]);
  });

  it('ignores and reports messages that are not contract events', () => {
    const { stream, sources, invalid } = harness();
    const got: EngineEvent[] = [];
    stream.subscribe((e) => got.push(e));
    sources[0]?.send('not json');
    sources[0]?.send({ type: 'mystery' });
    expect(got).toEqual([]);
    expect(invalid).toHaveLength(2);
  });

  it('closes the stream when the last listener leaves', () => {
    const { stream, sources } = harness();
    const off1 = stream.subscribe(() => {});
    const off2 = stream.subscribe(() => {});
    off1();
    expect(sources[0]?.closed).toBe(false);
    off2();
    expect(sources[0]?.closed).toBe(true);
  });

  it('reconnects with growing delays when the host drops the stream, and resets once open', () => {
    const { stream, sources, timers } = harness();
    const got: EngineEvent[] = [];
    stream.subscribe((e) => got.push(e));

    sources[0]?.fail();
    expect(timers.map((t) => t.ms)).toEqual([retryDelay(0)]);
    timers[0]?.fn();
    expect(sources).toHaveLength(2);

    sources[1]?.fail();
    expect(timers.map((t) => t.ms)).toEqual([retryDelay(0), retryDelay(1)]);
    timers[1]?.fn();
    sources[2]?.open();
    sources[2]?.send(online);
    expect(got).toEqual([{ type: 'incidentsChanged' }, online]);

    sources[2]?.fail();
    expect(timers[2]?.ms).toBe(retryDelay(0));
  });

  it('leaves transient errors to the browser’s own retry', () => {
    const { stream, sources, timers } = harness();
    stream.subscribe(() => {});
    const source = sources[0];
    if (!source) throw new Error('no source');
    source.readyState = 0; // CONNECTING: the browser is retrying by itself
    source.onerror?.(new Event('error'));
    expect(timers).toHaveLength(0);
    expect(source.closed).toBe(false);
  });

  it('cancels a pending reconnect when the last listener leaves', () => {
    const { stream, sources, timers } = harness();
    const off = stream.subscribe(() => {});
    sources[0]?.fail();
    off();
    expect(timers[0]?.cancelled).toBe(true);
  });

  it('caps the reconnect delay', () => {
    expect(retryDelay(0)).toBe(1_000);
    expect(retryDelay(3)).toBe(8_000);
    expect(retryDelay(20)).toBe(30_000);
  });
});

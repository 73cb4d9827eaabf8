import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../../src-shared/contract';
import type { Client } from '../../bridge/client';
import { hostHook } from '../../bridge/testHookHost';
import { OfficePullProgress } from './OfficePullProgress';
import { useOfficePull } from './useOfficePull';

const none = () => undefined;

describe('Settings › Office while a pull runs', () => {
  it('shows a bar of the rows pulled of the total, and a Cancel button', () => {
    const html = renderToStaticMarkup(
      <OfficePullProgress
        progress={{ state: 'running', rows: 8_000, total: 20_000 }}
        onCancel={none}
        cancelling={false}
      />,
    );
    expect(html).toContain('<progress max="20000" value="8000" aria-label="Office pull">');
    expect(html).toContain('Pulling from the office: 8,000 of 20,000 rows.');
    expect(html).toContain('>Cancel pull</button>');
  });

  it('says Cancelling… (disabled) until the pull stops, then what the cancel left', () => {
    const cancelling = renderToStaticMarkup(
      <OfficePullProgress
        progress={{ state: 'running', rows: 1_500, total: null }}
        onCancel={none}
        cancelling
      />,
    );
    expect(cancelling).toContain('<button type="button" class="button" disabled="">Cancelling…</button>');
    expect(cancelling).toContain('Pulling from the office: 1,500 rows.');
    const cancelled = renderToStaticMarkup(
      <OfficePullProgress
        progress={{ state: 'cancelled', rows: 8_000, total: 20_000 }}
        onCancel={none}
        cancelling={false}
      />,
    );
    expect(cancelled).toContain(
      'Pull cancelled after 8,000 of 20,000 rows: nothing half-written was kept, and the next pull brings the rest.',
    );
    expect(cancelled).not.toContain('<button');
  });

  it('shows nothing once a pull is done or failed (the section says so), nor before any', () => {
    for (const progress of [
      null,
      { state: 'done', rows: 5, total: 5 },
      { state: 'failed', rows: 0, total: 5 },
    ] as const)
      expect(
        renderToStaticMarkup(<OfficePullProgress progress={progress} onCancel={none} cancelling={false} />),
      ).toBe('');
  });
});

describe('the office pull’s events and Cancel', () => {
  it('follows officePullProgress events, sends cancelOfficePull, and is cancelling until the pull ends', async () => {
    const sent: string[] = [];
    const listeners = new Set<(event: EngineEvent) => void>();
    const client = {
      call: (name: string) => {
        sent.push(name);
        return Promise.resolve({ cancelled: true });
      },
      onEvent: (listener: (event: EngineEvent) => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    } as unknown as Client;
    const send = (event: EngineEvent) => listeners.forEach((l) => l(event));
    let ends = 0;
    const host = await hostHook(() => useOfficePull(client, none, () => (ends += 1)), {});
    expect(host.value.progress).toBeNull();
    await host.act(() => send({ type: 'officePullProgress', state: 'running', rows: 2_000, total: 20_000 }));
    expect(host.value.progress).toEqual({ state: 'running', rows: 2_000, total: 20_000 });
    await host.act(() => host.value.cancel());
    await host.settle();
    expect(sent).toEqual(['cancelOfficePull']);
    expect(host.value.cancelling).toBe(true);
    expect(ends).toBe(0);
    await host.act(() =>
      send({ type: 'officePullProgress', state: 'cancelled', rows: 4_000, total: 20_000 }),
    );
    expect(host.value).toMatchObject({ cancelling: false, progress: { state: 'cancelled', rows: 4_000 } });
    expect(ends).toBe(1);
    await host.unmount();
  });
});

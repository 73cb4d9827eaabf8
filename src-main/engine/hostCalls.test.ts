import { describe, expect, it } from 'vitest';
import type { CallName, Result } from '../../src-shared/contract';
import type { DemoStatus } from '../../src-shared/firstRun';
import type { EngineHandle } from './engineHandle';
import type { Handlers } from './handlers/handler';
import { withHostCalls, type HostAnswers } from './hostCalls';

const status: DemoStatus = {
  active: false,
  available: true,
  dataDir: '/d-demo',
  city: 'Chicago',
  areaId: null,
  keyStorage: null,
};

function recordingEngine() {
  const reached: CallName[] = [];
  const engine: EngineHandle = {
    call: async (name) => {
      reached.push(name);
      return { ok: true, value: {} } as Result<never>;
    },
    onEvent: () => () => undefined,
    close: async () => undefined,
  };
  return { engine, reached };
}

describe('withHostCalls', () => {
  it('answers the calls the contract gives the host, and hands every other call to the engine', async () => {
    const { engine, reached } = recordingEngine();
    const answers: HostAnswers = {
      getDemoStatus: async () => ({ ok: true, value: status }),
      startDemo: async () => ({ ok: true, value: { ...status, active: true } }),
      removeDemo: async () => ({ ok: true, value: status }),
    };
    const host = withHostCalls(engine, answers);
    expect(await host.call('getDemoStatus', {})).toEqual({ ok: true, value: status });
    expect(await host.call('startDemo', {})).toMatchObject({ ok: true, value: { active: true } });
    await host.call('listAreas', {});
    await host.call('startExport', { format: 'csv', filters: {} }); // a step this layer does not take
    expect(reached).toEqual(['listAreas', 'startExport']);
  });

  it('never lets an answer take over a call the engine answers', async () => {
    const { engine, reached } = recordingEngine();
    const sneaky = { listAreas: async () => ({ ok: true, value: { areas: [] } }) };
    const host = withHostCalls(engine, sneaky as never);
    await host.call('listAreas', {});
    expect(reached).toEqual(['listAreas']);
  });
});

describe('the types (checked by tsc over the tests)', () => {
  it('make a host missing its answer, or the engine missing a handler, a type error', async () => {
    const { handlers } = await import('./handlers/index');
    const answer = async (): Promise<Result<DemoStatus>> => ({ ok: true, value: status });
    // @ts-expect-error removeDemo is the host's to answer: leaving it out does not compile
    const incomplete: HostAnswers = { getDemoStatus: answer, startDemo: answer };
    const { countIncidents: _left, ...rest } = handlers;
    // @ts-expect-error an engine-answered call without its handler does not compile
    const missing: Handlers = rest;
    const withDemo: Handlers = {
      ...handlers,
      // @ts-expect-error the engine has no handler for a host-answered call
      getDemoStatus: async () => status,
    };
    expect([incomplete, missing, withDemo].every(Boolean)).toBe(true);
  });
});

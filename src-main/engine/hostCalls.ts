/**
 * The host's answers, routed by the contract's `answeredBy` (src-shared/contract.ts), never by a
 * call's name written in a wrapper. A host builds typed records — `HostAnswers` for the calls it
 * answers itself (demo mode), `HostSteps` for the calls it takes its part in before the engine
 * (an export's destination and printing, an import's file) — and serves `withHostCalls(engine, …)`.
 * Leaving out a call the contract gives the host is a type error where the record is written.
 */
import {
  answeredBy,
  type CallName,
  type CallOutput,
  type Contract,
  type HostCallName,
  type HostStepName,
  type Result,
} from '../../src-shared/contract';
import type { z } from 'zod';
import type { EngineHandle } from './engineHandle';

/** A host's answer to one call: the parsed input, and the engine behind it (to hand the call on). */
export type HostAnswer<K extends CallName> = (
  input: z.output<Contract[K]['input']>,
  engine: EngineHandle,
) => Promise<Result<CallOutput<K>>>;

/** Every call the host answers itself. */
export type HostAnswers = { [K in HostCallName]: HostAnswer<K> };
/** Every call the host takes its part in before the engine answers. */
export type HostSteps = { [K in HostStepName]: HostAnswer<K> };

/**
 * `engine` with the host's part in front: a call the contract gives the host goes to `answers`,
 * everything else (and a host call this layer does not answer) to `engine`. Layers stack: demo
 * mode's answers around the export steps, say.
 */
export function withHostCalls(
  engine: EngineHandle,
  answers: Partial<HostAnswers> | Partial<HostSteps>,
): EngineHandle {
  const table = answers as Partial<Record<CallName, HostAnswer<CallName>>>;
  return {
    call<K extends CallName>(name: K, input: unknown): Promise<Result<CallOutput<K>>> {
      const answer = answeredBy(name) === 'engine' ? undefined : table[name];
      if (answer) return answer(input as never, engine) as Promise<Result<CallOutput<K>>>;
      return engine.call(name, input);
    },
    onEvent: (listener) => engine.onEvent(listener),
    close: () => engine.close(),
  };
}

/**
 * Handler types. Each domain file exports a group (`{ ... } satisfies HandlerGroup`, which types
 * every argument) and handlers/index.ts merges the groups into one map typed `Handlers`: a call the
 * engine answers without a handler is a type error, and two groups handling one call fail at
 * startup. Calls the contract declares `answeredBy: 'host'` have no handler (engine.ts refuses them).
 */
import type { z } from 'zod';
import type { CallName, CallOutput, Contract, EngineCallName } from '../../../src-shared/contract';
import type { EngineContext } from '../context';

export type Handler<K extends CallName> = (
  input: z.output<Contract[K]['input']>,
  ctx: EngineContext,
) => Promise<CallOutput<K>>;

export type Handlers = { [K in EngineCallName]: Handler<K> };

export type HandlerGroup = Partial<Handlers>;

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void
  ? I
  : never;

export function mergeHandlers<G extends HandlerGroup[]>(...groups: G): UnionToIntersection<G[number]> {
  const merged: Record<string, unknown> = {};
  for (const group of groups) {
    for (const [name, handler] of Object.entries(group)) {
      if (name in merged) throw new Error(`Two handler groups both handle the call "${name}".`);
      merged[name] = handler;
    }
  }
  return merged as UnionToIntersection<G[number]>;
}

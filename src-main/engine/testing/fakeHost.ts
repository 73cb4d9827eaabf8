/**
 * Tests only: an engine handle that records each call and answers `{ ok: true, value }` (the value
 * from `answers` by call name, else `{}`), and host hooks with harmless defaults — for the host
 * steps in front of the engine (export/hostHooks.ts: exports, imports, boundary files, office CA).
 */
import { vi } from 'vitest';
import type { EngineHandle } from '../engineHandle';
import type { ExportHostHooks } from '../export/hostHooks';

export function fakeEngine(answers: Record<string, unknown> = {}) {
  const calls: { name: string; input: unknown }[] = [];
  const engine: EngineHandle = {
    call: vi.fn(async (name: string, input: unknown) => {
      calls.push({ name, input });
      return { ok: true, value: answers[name] ?? {} } as never;
    }) as EngineHandle['call'],
    onEvent: () => () => undefined,
    close: async () => undefined,
  };
  return { engine, calls };
}

/** Hooks that choose the default destination, take whatever file the page sent, and print nothing. */
export const hostHooks = (over: Partial<ExportHostHooks> = {}): ExportHostHooks => ({
  chooseDestination: async () => undefined,
  chooseImport: async (sent) => sent ?? null,
  printReport: async () => undefined,
  ...over,
});

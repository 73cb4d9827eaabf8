/**
 * The BlotterApi over the web host's HTTP protocol (src-shared/webProtocol.ts): one POST per call,
 * engine events over SSE, bodies in the wire form of src-shared/wire.ts (JSON with typed arrays).
 * Built in one loop over the contract's call names, like the preload.
 */
import { z } from 'zod';
import {
  BridgeError,
  callNames,
  type BlotterApi,
  type CallName,
  type Result,
} from '../../src-shared/contract';
import { callPath } from '../../src-shared/webProtocol';
import { decodeWire, encodeWire } from '../../src-shared/wire';
import type { EventStream } from './eventStream';

/** The part of `fetch` the bridge uses, so tests can pass a fake. */
export type FetchLike = (
  url: string,
  init: { method: string; credentials: 'same-origin'; headers: Record<string, string>; body: string },
) => Promise<{ status: number; text(): Promise<string> }>;

const Envelope = z.union([
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: BridgeError }),
]);

const failure = (error: BridgeError): Result<never> => ({ ok: false, error });

/** Plain words for an answer the host gave without a readable Result. */
function unreadable(status: number): BridgeError {
  if (status === 401 || status === 403) {
    return {
      code: 'forbidden_sender',
      message:
        'This browser is not signed in to Blotter. Open the address Blotter printed when it started (it ends in ?token=…).',
    };
  }
  return {
    code: 'bad_response',
    message: `Blotter's host gave an answer it could not read (HTTP ${status}).`,
  };
}

export async function postCall(fetchFn: FetchLike, name: CallName, input: unknown): Promise<Result<unknown>> {
  let response: Awaited<ReturnType<FetchLike>>;
  try {
    response = await fetchFn(callPath(name), {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: encodeWire(input ?? {}),
    });
  } catch {
    return failure({
      code: 'offline',
      message: "Blotter's host is not answering. Check that Blotter is still running, then try again.",
    });
  }
  let body: unknown;
  try {
    body = decodeWire(await response.text());
  } catch {
    return failure(unreadable(response.status));
  }
  const parsed = Envelope.safeParse(body);
  return parsed.success ? (parsed.data as Result<unknown>) : failure(unreadable(response.status));
}

export function createWebBridge(deps: { fetch: FetchLike; events: EventStream }): BlotterApi {
  const calls = Object.fromEntries(
    callNames.map((name) => [name, (input: unknown) => postCall(deps.fetch, name, input)]),
  );
  // The loop covers every name of the contract; the cast restores the per-name types it cannot express.
  return { ...calls, onEvent: (listener) => deps.events.subscribe(listener) } as BlotterApi;
}

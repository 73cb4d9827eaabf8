/**
 * The typed client the views use: `call(name, input)` resolves to the call's output or throws a
 * `BridgeCallError` that carries the engine's error code, message and field issues.
 */
import type {
  BlotterApi,
  BridgeError,
  CallInput,
  CallName,
  CallOutput,
  ErrorCode,
  Result,
} from '../../src-shared/contract';

export type FieldIssue = { path: string; message: string };

export class BridgeCallError extends Error {
  readonly code: ErrorCode;
  readonly issues: readonly FieldIssue[];

  constructor(
    readonly call: CallName,
    error: BridgeError,
  ) {
    super(error.message);
    this.name = 'BridgeCallError';
    this.code = error.code;
    this.issues = error.issues ?? [];
  }

  /** The first problem reported for a field (`path` as the engine names it), if any. */
  issueFor(path: string): string | undefined {
    return this.issues.find((issue) => issue.path === path)?.message;
  }
}

export type Client = {
  call<K extends CallName>(name: K, input: CallInput<K>): Promise<CallOutput<K>>;
  onEvent: BlotterApi['onEvent'];
};

export function createClient(api: BlotterApi): Client {
  return {
    async call<K extends CallName>(name: K, input: CallInput<K>): Promise<CallOutput<K>> {
      // A mapped type cannot be indexed generically without this one cast; BlotterApi fixes its shape.
      const method = api[name] as unknown as (input: CallInput<K>) => Promise<Result<CallOutput<K>>>;
      const result = await method(input);
      if (result.ok) return result.value;
      throw new BridgeCallError(name, result.error);
    },
    onEvent: (listener) => api.onEvent(listener),
  };
}

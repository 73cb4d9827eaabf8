/**
 * The one contract between the renderer and the engine.
 *
 * Every call the renderer may make is declared here as name → { input, output } (zod), and every
 * event the engine pushes is a member of `EngineEvent`. The preload, the Electron main process, the
 * web host and the renderer's bridges all loop over `contract`; no channel name is written anywhere
 * else. Add a call by adding an entry here (and its handler in src-main/engine/handlers).
 */
import { z } from 'zod';
import { PlanId, SettingsPatch, SettingsView } from './settings';
import { KeyStatus } from './secrets';

const Empty = z.object({}).strict();

export const contract = {
  /** Which host and data folder this is; the version for the About box and manifests. */
  getAppInfo: {
    input: Empty,
    output: z.object({
      version: z.string(),
      host: z.enum(['electron', 'web']),
      dataDir: z.string(),
    }),
  },
  getSettings: { input: Empty, output: SettingsView },
  updateSettings: { input: SettingsPatch, output: SettingsView },
  /** Whether a key is stored and whether the OS keychain can be reached. Never the key itself. */
  getKeyStatus: { input: Empty, output: KeyStatus },
  setApiKey: {
    input: z
      .object({
        key: z
          .string()
          .trim()
          .min(4, 'The API key is too short.')
          .max(512, 'The API key is too long.')
          .regex(/^[\x21-\x7e]+$/, 'The API key may contain only printable characters without spaces.'),
      })
      .strict(),
    output: KeyStatus,
  },
  removeApiKey: { input: Empty, output: KeyStatus },
} as const;

export type Contract = typeof contract;
export type CallName = keyof Contract;
export type CallInput<K extends CallName> = z.input<Contract[K]['input']>;
export type CallOutput<K extends CallName> = z.output<Contract[K]['output']>;

export const callNames = Object.keys(contract) as CallName[];

export function isCallName(name: unknown): name is CallName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(contract, name);
}

/** The IPC channel of a call. The only place a channel name is formed. */
export const channelOf = (name: CallName): string => `blotter:call:${name}`;
/** The IPC channel on which engine events reach the renderer. */
export const EVENT_CHANNEL = 'blotter:event';

// ---------------------------------------------------------------------------------------------
// Errors: every call resolves to a Result; failures carry a code the UI can act on.

export const ErrorCode = z.enum([
  'bad_input',
  'unknown_call',
  'forbidden_sender',
  'not_found',
  'keychain_unavailable',
  'no_api_key',
  'unauthorized',
  'ip_not_allowed',
  'rate_limited',
  'offline',
  'server_error',
  'bad_response',
  'conflict',
  'cancelled',
  'internal',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const BridgeError = z.object({
  code: ErrorCode,
  message: z.string(),
  /** Field-level problems for bad_input: path → message. */
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type BridgeError = z.infer<typeof BridgeError>;

export type Result<T> = { ok: true; value: T } | { ok: false; error: BridgeError };

/** Turns a zod failure into a typed bad_input error that names each field. */
export function badInput(error: z.ZodError, what = 'input'): BridgeError {
  const issues = error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || what,
    message: issue.message,
  }));
  return {
    code: 'bad_input',
    message: `Invalid ${what}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    issues,
  };
}

/** Parses a call's input against the contract; the one validation used by every host. */
export function parseCallInput<K extends CallName>(
  name: K,
  input: unknown,
): Result<z.output<Contract[K]['input']>> {
  const parsed = contract[name].input.safeParse(input ?? {});
  if (parsed.success) return { ok: true, value: parsed.data as z.output<Contract[K]['input']> };
  return { ok: false, error: badInput(parsed.error, `input for ${name}`) };
}

// ---------------------------------------------------------------------------------------------
// Events pushed by the engine.

export const EngineEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('settingsChanged'), settings: SettingsView }),
  z.object({ type: z.literal('keyStatusChanged'), status: KeyStatus }),
  z.object({
    type: z.literal('connectivity'),
    online: z.boolean(),
    /** Plain words for the status bar, e.g. "Waiting 12 s: the server asked us to slow down". */
    message: z.string().optional(),
  }),
]);
export type EngineEvent = z.infer<typeof EngineEvent>;

// ---------------------------------------------------------------------------------------------
// The API object the preload exposes and the web bridge implements.

export type BlotterApi = {
  readonly [K in CallName]: (input: CallInput<K>) => Promise<Result<CallOutput<K>>>;
} & {
  /** Subscribes to engine events; returns the unsubscribe function. */
  readonly onEvent: (listener: (event: EngineEvent) => void) => () => void;
};

export { PlanId };

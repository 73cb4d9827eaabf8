/**
 * The engine: opens the data folder's SQLite file, builds the context and its services once
 * (services.ts, in dependency order; closed in reverse), starts what EngineOptions ask for in the
 * background, and dispatches contract calls to the handlers. Host-agnostic and synchronous to
 * create; it runs inside the engine worker (worker.ts) for the desktop and web hosts, and
 * in-process for the CLI (inProcessEngine.ts).
 */
import { answeredBy, contract, EngineEvent, isCallName, parseCallInput } from '../../src-shared/contract';
import type { CallName, CallOutput, EngineCallName, Result } from '../../src-shared/contract';
import type { FetchLike } from './api/source';
import type { EngineContext, EngineCore, HostKind } from './context';
import { dbFileOf, ensureDir, logFileOf } from './dataDir';
import { toBridgeError } from './errors';
import { handlers as allHandlers, type Handler, type Handlers } from './handlers/index';
import { createLogger } from './log';
import { apiKeyAccount, type SecretStore } from './secrets/secretStore';
import { openDatabase } from './store/database';
import { localFailureOf } from './store/localFailure';
import { createSettingsRepo } from './store/settingsRepo';
import { schedulePrune } from './sync/historyPrune';
import { warmQueries } from './handlers/incidents';
import { buildServices } from './services';
import type { SchedulerOptions } from './sync/syncService';

export type EngineOptions = {
  dataDir: string;
  secrets: SecretStore;
  host: HostKind;
  version: string;
  emit: (event: EngineEvent) => void;
  /** Check every output and event against the contract (a mismatch becomes `internal`). Default: unless NODE_ENV=production. */
  checkOutputs?: boolean;
  /** Calls slower than this are logged. */
  slowCallMs?: number;
  /** Replaces the handler map (tests). */
  handlers?: Handlers;
  /**
   * The fetch for the API and online tiles, when the host performs HTTP itself (Electron: net.fetch,
   * bridged across the worker's port). Default: Node's fetch, through HTTPS_PROXY when set.
   */
  fetch?: FetchLike | null;
  /**
   * Background refresh of due areas (sync/syncService.ts startScheduler), from engine start to close.
   * Default: HOST_DEFAULTS (on for the app hosts, off for the CLI, which syncs when told to).
   */
  scheduler?: SchedulerOptions | false;
  /** Preload the incident snapshot at start. Default: HOST_DEFAULTS (the app hosts, not the CLI). */
  warmQueries?: boolean;
};

/**
 * What an engine starts in the background, by host, unless EngineOptions say otherwise. Decided
 * here at start, never by which call arrives first. Nothing at start reads the keychain or goes
 * online for any host: the scheduler's syncs do, when an area is due.
 */
export const HOST_DEFAULTS: Record<HostKind, { scheduler: boolean; warmQueries: boolean }> = {
  electron: { scheduler: true, warmQueries: true },
  web: { scheduler: true, warmQueries: true },
  cli: { scheduler: false, warmQueries: false },
};

export interface Engine {
  /** Runs a call by name; validates the name and input (defence in depth: hosts parse too). */
  dispatch<K extends CallName>(name: K, input: unknown): Promise<Result<CallOutput<K>>>;
  dispatch(name: string, input: unknown): Promise<Result<unknown>>;
  readonly context: EngineContext;
  /** Waits for calls in flight, runs the onClose hooks, closes the database. Idempotent. */
  close(): Promise<void>;
}

const SLOW_CALL_MS = 50;

/**
 * Calls that a long write's lock can refuse only before they did anything: when one is refused
 * (nothing changed), the dispatcher runs it again in its write turn. Their writes are this folder's
 * own; in office mode the area calls write PostgreSQL first, but their local writes come only by the
 * replica's pull, which waits for its turn and is never refused. A call whose local write may be
 * refused after it reached outside — an office area's delete (PostgreSQL, then the folder's sync
 * state), the API, mail, the keychain — is not here: run again it could repeat what it did there;
 * it answers `database_locked` in words instead.
 */
const RERUN_WHEN_REFUSED: ReadonlySet<EngineCallName> = new Set<EngineCallName>([
  'updateSettings',
  'addAlertRule',
  'updateAlertRule',
  'setAlertRulePaused',
  'removeAlertRule',
  'markAlertsRead',
  'saveMapping',
  'renameLayer',
  'deleteLayer',
  'discardBoundaries',
  'createArea',
  'renameArea',
  'setAreaRefresh',
  'setAreaPaused',
]);

export function createEngine(options: EngineOptions): Engine {
  const log = createLogger('engine');
  const checkOutputs = options.checkOutputs ?? process.env.NODE_ENV !== 'production';
  const slowCallMs = options.slowCallMs ?? SLOW_CALL_MS;
  const handlers = options.handlers ?? allHandlers;
  const logFile = logFileOf(options.dataDir);
  const disposers: Array<() => void | Promise<void>> = [];
  const inFlight = new Set<Promise<unknown>>();
  let closing: Promise<void> | null = null;

  const core = createCore(options, log, checkOutputs, (dispose) => disposers.push(dispose));
  const defaults = HOST_DEFAULTS[options.host];
  const scheduler = options.scheduler ?? (defaults.scheduler ? {} : false);
  let context: EngineContext;
  try {
    context = { ...core, services: buildServices(core, { fetch: options.fetch }) };
    if (scheduler) context.services.sync.startScheduler(scheduler);
  } catch (error) {
    void runDisposers().finally(() => core.db.close());
    throw error;
  }

  // Old request-log rows, runs and jobs go in small batches once the first calls are served.
  disposers.push(schedulePrune(context.db, Date.now, log));

  // The app hosts show a map at once: load the incident snapshot now, after the first calls queue.
  if (options.warmQueries ?? defaults.warmQueries) {
    const warming = setTimeout(() => void warmQueries(context), 0);
    disposers.push(() => clearTimeout(warming));
  }

  async function run(name: EngineCallName, input: unknown): Promise<Result<unknown>> {
    const parsed = parseCallInput(name, input);
    if (!parsed.ok) return parsed;
    const started = performance.now();
    try {
      const handle = () => (handlers[name] as Handler<EngineCallName>)(parsed.value as never, context);
      // A write refused by a long write's lock (an import's merge) is made in its turn, after it —
      // only for calls that touch nothing but this folder, so running one again repeats nothing.
      const value = await (RERUN_WHEN_REFUSED.has(name)
        ? context.services.writeTurns.waitingOnRefusal(handle)
        : handle());
      if (checkOutputs) {
        const checked = contract[name].output.safeParse(value);
        if (!checked.success)
          throw new Error(`${name} answered outside the contract: ${checked.error.message}`);
      }
      return { ok: true, value };
    } catch (error) {
      // A local failure (disk full, locked, damaged file, native module) answers its own code and words.
      const local = localFailureOf(error, dbFileOf(options.dataDir));
      if (local) log.warn(`${name} failed on a local problem`, { code: local.code, error });
      return { ok: false, error: toBridgeError(local ?? error, { call: name, log, logFile }) };
    } finally {
      const ms = performance.now() - started;
      if (ms > slowCallMs) log.info('slow call', { call: name, ms: Math.round(ms) });
    }
  }

  function dispatch(name: string, input: unknown): Promise<Result<unknown>> {
    if (closing) return Promise.resolve(failure('cancelled', 'Blotter is shutting down.'));
    if (!isCallName(name)) {
      return Promise.resolve(
        failure('unknown_call', `There is no call named "${String(name).slice(0, 80)}".`),
      );
    }
    if (answeredBy(name) === 'host') {
      return Promise.resolve(
        failure(
          'unknown_call',
          `${name} is answered by the Blotter app that started the engine, not by the engine; this host does not offer it.`,
        ),
      );
    }
    const running = run(name as EngineCallName, input);
    inFlight.add(running);
    void running.finally(() => inFlight.delete(running));
    return running;
  }

  async function runDisposers(): Promise<void> {
    for (const dispose of disposers.splice(0).reverse()) {
      try {
        await dispose();
      } catch (error) {
        log.error('cleanup failed while closing', { error });
      }
    }
  }

  async function shutdown(): Promise<void> {
    await Promise.allSettled([...inFlight]);
    await runDisposers();
    context.db.close();
  }

  return {
    dispatch: dispatch as Engine['dispatch'],
    context,
    close: () => (closing ??= shutdown()),
  };
}

function createCore(
  options: EngineOptions,
  log: EngineCore['log'],
  checkEvents: boolean,
  onClose: EngineCore['onClose'],
): EngineCore {
  ensureDir(options.dataDir);
  const db = openDatabase(dbFileOf(options.dataDir));
  try {
    const settings = createSettingsRepo(db);
    return {
      db,
      dataDir: options.dataDir,
      host: options.host,
      version: options.version,
      settings,
      secrets: options.secrets,
      keyAccount: apiKeyAccount(settings.profileId()),
      emit(event) {
        if (checkEvents) EngineEvent.parse(event);
        try {
          options.emit(event);
        } catch (error) {
          log.error('an event listener failed', { event: event.type, error });
        }
      },
      log,
      onClose,
    };
  } catch (error) {
    db.close();
    throw error;
  }
}

function failure(code: 'cancelled' | 'unknown_call', message: string): Result<never> {
  return { ok: false, error: { code, message } };
}

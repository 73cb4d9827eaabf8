/**
 * The engine's one door for hosts. src-main/electron, src-main/web, src-main/cli and src-main/demo
 * import the engine from this file only (plus src-shared); eslint.config.js fails any other path.
 * A host reaches the engine's behaviour through contract calls on an EngineHandle; what is here is
 * what a host needs around that: starting an engine, its data folder, logging, the key store, and
 * the host's part in exports and imports.
 *
 * Light on purpose: importing this file loads neither SQLite nor keytar (the app hosts run the
 * engine in a worker thread, engineClient.ts). The in-process engine, which opens SQLite on the
 * caller's thread, is loaded only when `createInProcessEngine` is called.
 */
import type { EngineHandle } from './engineHandle';
import type { InProcessEngineOptions } from './inProcessEngine';

export type { EngineHandle } from './engineHandle';
export type { HostKind } from './context';
export type { InProcessEngineOptions } from './inProcessEngine';

/** The engine on the caller's own thread (the CLI, tests): same handle, same calls as the worker. */
export async function createInProcessEngine(options: InProcessEngineOptions): Promise<EngineHandle> {
  const { createInProcessEngine: create } = await import('./inProcessEngine');
  return create(options);
}

export { startEngine, EngineStartError, type StartEngineOptions } from './engineClient';
export { createEventHub } from './eventHub';
export { configureLogging, createLogger, registerSecret, type Logger } from './log';
export { DataDirError, PRIVATE_UMASK, dbFileOf, ensureDir, logFileOf, resolveDataDir } from './dataDir';
export { localFailureOf } from './store/localFailure';

// Secrets: the OS keychain behind one interface; demo mode's in-memory synthetic key.
export { createKeytarSecretStore } from './secrets/keytarSecretStore';
export { DEMO_KEY_BACKEND, withInMemoryDemoKey } from './secrets/demoKeySecretStore';
export {
  apiKeyAccount,
  KeychainUnavailableError,
  type KeychainStatus,
  type SecretStore,
} from './secrets/secretStore';
export { smtpPasswordAccount } from './alerts/channels';

// The hosts' part in exports, imports and the engine's HTTP (Electron's net.fetch).
export {
  withExportHooks,
  type ChosenFilePurpose,
  type ExportHostHooks,
  type PrintJob,
} from './export/hostHooks';
// Emailed bulletins: the host prints due schedules' reports and hands them back to be mailed.
export {
  sendDueReports,
  sendReportsWhenDue,
  sendScheduledReports,
  type DueRun,
  type SentReport,
} from './schedules/sendDue';
// Calls the contract gives the host (answeredBy): routed by declaration, answered by typed records.
export { withHostCalls, type HostAnswer, type HostAnswers, type HostSteps } from './hostCalls';
export { EXPORT_NAME, exportsDirOf } from './files/destination';
export { importsDirOf, uploadFileOf } from './files/sources';
export { HOST_BODY_LIMIT, shownUrl, type HostFetch } from './api/fetchBridge';

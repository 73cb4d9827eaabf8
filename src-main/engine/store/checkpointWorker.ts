/**
 * A thread that checkpoints the archive's write-ahead log on its own connection (built as
 * out/main/checkpointWorker.js; see backgroundCheckpoint.ts): copies the log into the database file
 * without blocking the engine's reads or writes, then truncates the log if nothing is using it.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

export type CheckpointWorkerData = { file: string };
export type CheckpointResult = { ok: true; frames: number; copied: number } | { ok: false; message: string };

const { file } = workerData as CheckpointWorkerData;
let result: CheckpointResult;
try {
  const db = new Database(file, { fileMustExist: true });
  try {
    const [passive] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
    db.pragma('busy_timeout = 0');
    try {
      db.pragma('wal_checkpoint(TRUNCATE)'); // only when no one reads or writes at this instant
    } catch {
      // busy: the log is reused from its start by the next write anyway
    }
    result = { ok: true, frames: passive?.log ?? 0, copied: passive?.checkpointed ?? 0 };
  } finally {
    db.close();
  }
} catch (error) {
  result = { ok: false, message: error instanceof Error ? error.message : String(error) };
}
parentPort?.postMessage(result);

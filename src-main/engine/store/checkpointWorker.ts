/**
 * A thread that checkpoints the archive's write-ahead log on its own connection (built as
 * out/main/checkpointWorker.js; see backgroundCheckpoint.ts): copies the log into the database file
 * without blocking the engine's reads or writes. A PASSIVE checkpoint takes no write lock; truncating
 * the log (which does) is left to the engine's own connection afterwards, so a write transaction on
 * another connection is never refused "database is locked" because this thread held the lock.
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
    result = { ok: true, frames: passive?.log ?? 0, copied: passive?.checkpointed ?? 0 };
  } finally {
    db.close();
  }
} catch (error) {
  result = { ok: false, message: error instanceof Error ? error.message : String(error) };
}
parentPort?.postMessage(result);

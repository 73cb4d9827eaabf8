/**
 * Writes only a standalone folder makes (imports): on an office replica they are refused with the
 * reason, since its incidents come only through the replica's pull (replica.ts). Reads the link
 * row itself, so the import can ask without importing the office's modules.
 */
import { EngineError } from '../errors';
import type { Db } from './database';

export function refuseOnReplica(db: Db, what: string): void {
  if (db.prepare('SELECT 1 FROM office_link WHERE id = 1').get() !== undefined)
    throw new EngineError(
      'conflict',
      `This data folder is a replica of an office database: its incidents come from the office, so it does not ${what} here (blotter office status; blotter office leave makes it standalone again).`,
    );
}

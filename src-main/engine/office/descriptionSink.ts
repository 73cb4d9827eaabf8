/**
 * Where a description fetched on demand (sync/details.ts, the incident panel) is kept. A
 * standalone folder writes its own incident row (`localDescriptions`, sync/details.ts); a folder
 * joined to an office writes the office database's incident row — its change sequence moves on,
 * so every replica gets the description by its pull — and then pulls, so this replica's row
 * changes only through the pull, like every other office incident. The person waiting sees the
 * description either way. PostgreSQL unreachable: the description is shown but kept nowhere (a
 * local-only write would make this replica differ from the office for good); it is said in the log.
 */
import type { Logger } from '../log';
import type { DescriptionSink } from '../sync/details';
import { isUnreachable, OfficeUnreachableError, type OfficePool } from './officeDb';

export function officeDescriptions(
  pool: () => Promise<OfficePool>,
  pull: () => Promise<unknown>,
  log: Logger,
): DescriptionSink {
  const unreachable = (e: unknown) => e instanceof OfficeUnreachableError || isUnreachable(e);
  return {
    async keep(cdid, description, fetchedAt) {
      try {
        const p = await pool();
        const r = await p.query(
          'UPDATE incidents SET description = $2, description_fetched_at = $3 WHERE cdid = $1',
          [cdid, description, fetchedAt],
        );
        if (r.rowCount === 0) {
          log.warn('description shown, not kept: the office archive no longer holds the incident', { cdid });
          return;
        }
      } catch (e) {
        if (!unreachable(e)) throw e;
        log.warn('description shown, not kept: PostgreSQL unreachable (nothing written to the replica)', {
          cdid,
          why: (e as Error).message,
        });
        return;
      }
      try {
        await pull();
      } catch (e) {
        if (!unreachable(e)) throw e;
        // Kept in the office: this replica gets it by its next pull.
        log.warn('description kept in the office; this replica gets it by its next pull', {
          cdid,
          why: (e as Error).message,
        });
      }
    },
  };
}

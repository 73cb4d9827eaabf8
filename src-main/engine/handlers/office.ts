/**
 * Office mode's calls, from the engine's office service (engine/office/service.ts): join, status,
 * pull (and cancel it), leave. Translates the service's failures into contract codes: unreachable (or a refused
 * login) → office_unreachable (CLI exit 8), a bad address → bad_input, a folder with its own
 * archive or a schema newer than the app → conflict.
 */
import { EngineError } from '../errors';
import { OfficeSchemaTooNewError, OfficeSetupError } from '../office/migrate';
import { OfficeUnreachableError } from '../office/officeDb';
import { OfficeNotEmptyError } from '../office/seed';
import { OfficeUrlError } from '../office/officeUrl';
import { addressWithChosenCa } from '../office/caCertificate';
import { LocalArchiveNotEmptyError, OfficeReplicaError } from '../office/service';
import { OfficePullCancelled } from '../office/replica';
import type { EngineContext } from '../context';
import type { HandlerGroup } from './handler';

async function translated<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof OfficePullCancelled) throw new EngineError('cancelled', e.message);
    if (e instanceof OfficeUnreachableError) throw new EngineError('office_unreachable', e.message);
    if (e instanceof OfficeUrlError) throw new EngineError('bad_input', e.message);
    if (
      e instanceof LocalArchiveNotEmptyError ||
      e instanceof OfficeSchemaTooNewError ||
      e instanceof OfficeNotEmptyError
    )
      throw new EngineError('conflict', e.message);
    if (e instanceof OfficeSetupError) throw new EngineError('conflict', e.message);
    const code = (e as { code?: string }).code;
    if (code === '28P01' || code === '28000' || code === '3D000')
      throw new EngineError(
        'office_unreachable',
        `The office database refused the connection: ${(e as Error).message}.`,
      );
    if (e instanceof Error && /not joined to an office/.test(e.message))
      throw new EngineError('not_found', e.message);
    throw e;
  }
}

/** A handler that would write incidents locally: refused (conflict) while the folder is an office replica. */
export function refuseInOfficeMode(ctx: EngineContext, what: string): void {
  try {
    ctx.services.office.refuseLocalWrites(what);
  } catch (e) {
    if (e instanceof OfficeReplicaError) throw new EngineError('conflict', e.message);
    throw e;
  }
}

export const officeHandlers = {
  joinOffice: (input, ctx) =>
    translated(() =>
      ctx.services.office.join(
        // The CA file a host chose (never a path the page named: export/hostHooks.ts) is copied in.
        input.caFile ? addressWithChosenCa(input.url, ctx.dataDir, input.caFile) : input.url,
        input.password,
        input.replaceLocal,
        input.seed,
      ),
    ),
  getOfficeStatus: (_input, ctx) => translated(() => ctx.services.office.status()),
  pullOffice: (_input, ctx) => translated(() => ctx.services.office.pull()),
  cancelOfficePull: (_input, ctx) => Promise.resolve({ cancelled: ctx.services.office.cancelPull() }),
  leaveOffice: (_input, ctx) => translated(() => ctx.services.office.leave()),
} satisfies HandlerGroup;

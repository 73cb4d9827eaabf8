/**
 * A connection pool to the office database: the address (officeUrl.ts), the password given by
 * the caller (from the keychain: officeSecrets.ts), TLS as the address says, 64-bit integers as
 * numbers (cdids, epoch ms and change numbers fit in 2^53), and short timeouts so a desktop
 * whose office is gone learns it in seconds (OfficeUnreachableError; the CLI's exit 8).
 */
import pg from 'pg';
import { sslOption, type OfficeAddress } from './officeUrl';

export class OfficeUnreachableError extends Error {
  override name = 'OfficeUnreachableError';
}

const INT8 = 20;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8
      ? (v: string) => Number(v)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export type OfficePool = pg.Pool;

export function openOfficePool(address: OfficeAddress, password: string | null, max = 4): OfficePool {
  const pool = new pg.Pool({
    host: address.host,
    port: address.port,
    user: address.user,
    database: address.database,
    ...(password !== null ? { password } : {}),
    ssl: sslOption(address),
    types,
    max,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 10_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    application_name: 'blotter',
  });
  // A client losing its server (pg_terminate_backend, a restart, the network) emits 'error'. The
  // pool listens on idle clients only; a checked-out client (a pull's snapshot, a fenced write,
  // the ledger's transaction) had no listener, so the error crashed the process. Every client
  // listens from birth: the query in flight, or the client's next one, fails instead (isUnreachable),
  // and the pool drops the dead client when it is released.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/** Errors that mean "the office database cannot be reached", not "it refused what we asked". */
export function isUnreachable(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  if (
    e?.code &&
    [
      'ECONNREFUSED',
      'ENOTFOUND',
      'EHOSTUNREACH',
      'ETIMEDOUT',
      'ECONNRESET',
      'EAI_AGAIN',
      'EPIPE',
      '57P01',
      '57P02',
      '57P03',
      '08000',
      '08003',
      '08006',
    ].includes(e.code)
  )
    return true;
  return /timeout|terminated unexpectedly|Connection terminated|connection error and is not queryable|Client was closed and is not queryable/i.test(
    e?.message ?? '',
  );
}

/** Runs `fn`, turning "cannot reach the database" into OfficeUnreachableError naming the host. */
export async function reaching<T>(address: OfficeAddress, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (isUnreachable(e))
      throw new OfficeUnreachableError(
        `The office database at ${address.host}:${address.port} cannot be reached (${(e as Error).message}). Working on this desktop's replica; syncs pause until it is back.`,
      );
    throw e;
  }
}

/** One transaction on a pooled client: COMMIT after `fn`, ROLLBACK if it throws. */
export async function inTransaction<T>(
  pool: OfficePool,
  fn: (c: pg.PoolClient) => Promise<T>,
  isolation = '',
): Promise<T> {
  const c = await pool.connect();
  try {
    await c.query(`BEGIN${isolation ? ` ISOLATION LEVEL ${isolation}` : ''}`);
    const out = await fn(c);
    await c.query('COMMIT');
    return out;
  } catch (e) {
    await c.query('ROLLBACK').catch(() => {});
    throw e;
  } finally {
    c.release();
  }
}

/**
 * Office mode's contract calls (src-main/engine/office; handlers/office.ts): join a data folder to
 * an office PostgreSQL database, its status, a replica pull, and leaving (the replica stays as a
 * standalone archive). The password goes in with joinOffice (into the keychain) and never comes
 * back; the address never carries one. Pure TypeScript.
 */
import { z } from 'zod';
import { ImportSource } from './exports';

const Empty = z.object({}).strict();

export const JoinOfficeInput = z
  .object({
    /**
     * postgres://user@host[:port]/database[?sslmode=verify-full] — no password. `sslrootcert=FILE`
     * only from the CLI: a page never names a file on this computer (the host refuses it; see caFile).
     */
    url: z.string().min(1).max(2000),
    /**
     * A private CA's certificate (PEM) for verify-full, in a file the host chooses: Electron's open
     * dialog (`{ choose: true }` asks for it), the web host an upload's id. The engine copies it
     * into the data folder and the address names that copy.
     */
    caFile: z.union([ImportSource, z.object({ choose: z.literal(true) }).strict()]).optional(),
    /** Stored in the keychain for this data folder; null: the server asks none (trust, peer). */
    password: z.string().max(1000).nullable(),
    /** The folder already holds incidents or areas: they give way to the office's. */
    replaceLocal: z.boolean().default(false),
    /** The office is empty: this folder's standalone archive (areas, coverage, incidents) seeds it. */
    seed: z.boolean().default(false),
  })
  .strict();

export const OfficePullCounts = z.object({
  areas: z.number().int(),
  coverage: z.number().int(),
  incidents: z.number().int(),
  deletions: z.number().int(),
});

/**
 * A running office pull (the app's, the CLI's, the periodic one, a fresh join's catch-up): `rows`
 * pulled of about `total` (PostgreSQL counts what is pending, each table as the pull reaches it), at most every
 * ~200 ms and at its end. `cancelled`: nothing of its one-transaction catch-up was kept (a pull in
 * slices keeps the slices it finished, with their cursor); the next pull brings the rest.
 */
export const OfficePullProgressFields = z.object({
  state: z.enum(['running', 'done', 'failed', 'cancelled']),
  rows: z.number().int().nonnegative(),
  total: z.number().int().nonnegative().nullable(),
});
export type OfficePullProgress = z.infer<typeof OfficePullProgressFields>;

export const OfficeStatus = z.object({
  joined: z.boolean(),
  /** The address, without a password. */
  url: z.string().nullable(),
  officeId: z.string().nullable(),
  joinedAt: z.number().nullable(),
  pulledAt: z.number().nullable(),
  /** null when not joined; false: working on the replica, syncs paused (problem says why). */
  reachable: z.boolean().nullable(),
  problem: z.string().nullable(),
  schemaVersion: z.number().int().nullable(),
  /** Rows in the office archive, and in this folder's replica. */
  officeIncidents: z.number().int().nullable(),
  replicaIncidents: z.number().int(),
  /** Who leads the office's sync now (lease), if anyone. */
  leader: z.object({ holder: z.string(), token: z.number().int(), expiresInMs: z.number() }).nullable(),
  /** This desktop as the leases name it. */
  holder: z.string().optional(),
  /** Each area's sync leader now (lease unexpired), and whether it is this desktop. */
  leaders: z
    .array(
      z.object({
        areaId: z.number().int(),
        holder: z.string(),
        mine: z.boolean(),
        expiresInMs: z.number(),
      }),
    )
    .optional(),
  /** API requests the office ledger counts in the last minute (every desktop, every key). */
  requestsLastMinute: z.number().int().nullable().optional(),
  /** Changes in the office archive this replica has not pulled yet (replica lag). */
  behind: z.number().int().nullable().optional(),
  /**
   * Office rows the pull skipped because Blotter would never write them (a NaN latitude, hour 99):
   * how many, and the first ones by table and key with what is wrong. The pull takes every other row.
   */
  skipped: z
    .object({
      count: z.number().int(),
      rows: z.array(z.object({ table: z.string(), key: z.string(), problem: z.string() })),
    })
    .optional(),
});
export type OfficeStatus = z.infer<typeof OfficeStatus>;

export const officeCalls = {
  /**
   * Joins this data folder to an office database: migrates its schema, stores the password, pulls.
   * The host chooses the CA certificate file (engine/export/hostHooks.ts); the page names none.
   */
  joinOffice: {
    input: JoinOfficeInput,
    output: z.object({ status: OfficeStatus, pulled: OfficePullCounts }),
    answeredBy: 'host-then-engine',
  },
  getOfficeStatus: { input: Empty, output: OfficeStatus },
  /** Pulls what changed in the office archive into this folder's replica. */
  pullOffice: { input: Empty, output: OfficePullCounts },
  /**
   * Stops the running pull (officePullProgress events say how far it got): its call answers
   * `cancelled`; a catch-up's one transaction is rolled back. False when none runs.
   */
  cancelOfficePull: { input: Empty, output: z.object({ cancelled: z.boolean() }) },
  /** Leaves office mode: the replica stays as this folder's standalone archive. */
  leaveOffice: { input: Empty, output: z.object({ left: z.boolean(), replicaIncidents: z.number().int() }) },
} as const;

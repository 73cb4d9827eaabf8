/**
 * The offline locator's calls (engine/import/places, issue 28): an import's rows without coordinates wait
 * as unplaced until a reference file (address points, street centre lines) or the archive's own
 * block addresses place them.
 */
import { z } from 'zod';
import { ImportSource } from './exports';

const Count = z.number().int().nonnegative();

export const PlaceMethod = z.enum(['address point', 'block', 'interpolated', 'intersection']);

export const PlaceOutcome = z.object({
  tried: Count,
  placed: Count,
  byMethod: z.record(z.string(), Count),
  /** Rows still unplaced after the try. */
  unplaced: Count,
});
export type PlaceOutcome = z.infer<typeof PlaceOutcome>;

export const UnplacedRowView = z.object({
  cdid: z.number(),
  /** Its record number in the file it came from. */
  row: z.number().int(),
  address: z.string(),
  type: z.string(),
  occurredLocal: z.string(),
  reason: z.string(),
});
export type UnplacedRowView = z.infer<typeof UnplacedRowView>;

export const UnplacedList = z.object({ count: Count, rows: z.array(UnplacedRowView) });
export type UnplacedList = z.infer<typeof UnplacedList>;

export const placesCalls = {
  /** The rows waiting for a place (the first `limit`, newest import first) and how many in all. */
  listUnplaced: {
    input: z.object({ limit: z.number().int().min(1).max(1000).default(100) }).strict(),
    output: UnplacedList,
  },
  /** Tries the locator on every unplaced row again. */
  retryPlaces: { input: z.object({}).strict(), output: PlaceOutcome },
  /** Adds a reference file (the host chooses it, like previewImport's), then tries every unplaced row. */
  addPlaceReference: {
    input: z.object({ source: ImportSource.optional() }).strict(),
    output: z.object({
      kind: z.enum(['address points', 'centre lines']),
      items: Count,
      skipped: Count,
      retry: PlaceOutcome,
    }),
    answeredBy: 'host-then-engine',
  },
} as const;

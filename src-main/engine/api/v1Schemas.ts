/**
 * The v1 surface's bodies (spec: "Incident (planned v1)", page envelope, safety score, trend
 * series), as zod schemas. Extra fields are ignored; a missing or mistyped field Blotter uses makes
 * the whole answer a typed failure that writes nothing.
 */
import { z } from 'zod';

/** ISO-8601 date-time with a UTC offset (or Z), as v1's occurred_at is specified. */
const ISO_WITH_OFFSET = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,9})?)?(Z|[+-]\d\d:?\d\d)$/;
export const OccurredAt = z
  .string()
  .max(40)
  .refine(
    (s) => ISO_WITH_OFFSET.test(s) && !Number.isNaN(Date.parse(s)),
    'occurred_at is not an ISO-8601 date-time with an offset',
  );

/** v1 ids are strings; Blotter keeps only those that read as a positive integer (a live cdid). */
const V1Id = z
  .string()
  .regex(/^[1-9]\d{0,15}$/, 'id is not a positive integer')
  .refine((s) => Number(s) <= Number.MAX_SAFE_INTEGER, 'id is too large');

export const V1Incident = z.object({
  id: V1Id,
  type: z.string().trim().min(1).max(100),
  raw_type: z.string().trim().min(1).max(100).optional(),
  occurred_at: OccurredAt,
  address: z.string().max(500).optional(),
  lat: z.number().min(-90).max(90),
  lon: z.number().min(-180).max(180),
  url: z.string().max(2000).optional(),
});
export type V1Incident = z.infer<typeof V1Incident>;

export const V1Page = z.object({
  incidents: z.array(V1Incident).max(10_000),
  next_cursor: z.string().min(1).max(4000).nullable(),
});

export const V1Score = z.object({
  score: z.number().int().min(0).max(100),
  grade: z.string().max(10),
  radius_mi: z.number().positive(),
  updated_at: z.string().max(40),
  breakdown: z.object({
    violent: z.number().int(),
    property: z.number().int(),
    quality_of_life: z.number().int(),
  }),
});
export type V1Score = z.infer<typeof V1Score>;

export const V1Trends = z.object({
  interval: z.enum(['day', 'week', 'month']),
  buckets: z
    .array(
      z.object({
        start: z.string().max(40),
        end: z.string().max(40),
        count: z.number().int().min(0),
        by_type: z.record(z.string(), z.number().int().min(0)),
      }),
    )
    .max(2000),
});
export type V1Trends = z.infer<typeof V1Trends>;

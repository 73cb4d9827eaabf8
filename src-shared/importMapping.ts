/**
 * A column mapping: how the columns of another system's file become Blotter's fields. Saved by
 * name and offered again for a file with the same header shape (the set of column names after
 * trimming and case-folding). Pure zod, shared by the engine and the Import view.
 */
import { z } from 'zod';

const Column = z.string().min(1).max(200);

export const DateStyle = z.enum(['auto', 'iso', 'us', 'excel']);
export type DateStyle = z.infer<typeof DateStyle>;

export const LocationMapping = z.discriminatedUnion('kind', [
  /** No coordinates (an address-only file): every row with an address is imported as unplaced. */
  z.object({ kind: z.literal('none') }).strict(),
  z.object({ kind: z.literal('latlon'), lat: Column, lon: Column }).strict(),
  z
    .object({
      kind: z.literal('xy'),
      x: Column,
      y: Column,
      /** A bundled State Plane or UTM zone, or `wkt` (a .prj the user supplies). */
      epsg: z.number().int().positive().optional(),
      wkt: z.string().min(10).max(20_000).optional(),
    })
    .strict()
    .refine(
      (l) => (l.epsg === undefined) !== (l.wkt === undefined),
      'Give an EPSG code or a .prj, not both.',
    ),
]);
export type LocationMapping = z.infer<typeof LocationMapping>;

export const ColumnMapping = z
  .object({
    /** The name it is saved under; also the namespace of the file's ids. */
    name: z.string().min(1).max(100),
    /** The file's own id column; `cdid` when the file is a Blotter export (its cdids are kept). */
    id: Column.optional(),
    /** The file's type (offence) column; none when `constantType` gives every row's type. */
    type: Column.optional(),
    /**
     * One type for every row, for a file with no type column (a file of shootings, of arrests).
     * A mapping gives either this or `type`, not both (the mapper refuses it otherwise).
     */
    constantType: z.string().min(1).max(100).optional(),
    /** The file's codes → Blotter's types (or a new type); codes not listed keep their text. */
    typeMap: z
      .record(z.string().max(200), z.string().min(1).max(100))
      .refine((m) => Object.keys(m).length <= 2000, 'At most 2,000 codes can be mapped to types.')
      .optional(),
    address: Column.optional(),
    /** A column of block or house numbers written before the address (Charlottesville's BlockNumber + StreetName). */
    block: Column.optional(),
    date: Column,
    /** A separate time column, when the date column holds only the day. */
    time: Column.optional(),
    dateStyle: DateStyle.default('auto'),
    location: LocationMapping,
    description: Column.optional(),
    /** The IANA zone the file's times are in, for rows without coordinates (else most placed rows'). */
    timezone: z.string().min(1).max(64).optional(),
    /** Other columns kept as the incident's attributes. */
    keep: z.array(Column).max(200).default([]),
  })
  .strict();
export type ColumnMapping = z.infer<typeof ColumnMapping>;
export type ColumnMappingInput = z.input<typeof ColumnMapping>;

/** The header shape a saved mapping is found by: the column names trimmed, case-folded, sorted. */
export function headerShape(columns: readonly string[]): string {
  return [...new Set(columns.map((c) => c.trim().toLowerCase()))].sort().join('\u0000');
}

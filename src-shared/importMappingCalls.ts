/**
 * The Import view's column-mapping calls (src-main/engine/import; handlers/imports.ts): inspect a
 * file (its columns, first rows, each column's values and a proposed mapping — the host chooses the
 * file, as for previewImport), preview the inspected file through a mapping the page edits, and
 * save or list mappings by name. Nothing is written to the archive by any of them: runImport does
 * that once the user confirms a preview. Pure TypeScript.
 */
import { z } from 'zod';
import { ImportPreview, ImportSource } from './exports';
import { ColumnMapping } from './importMapping';

const Empty = z.object({}).strict();
const FileId = z.string().regex(/^[0-9a-f]{16}$/, 'Not an inspected file.');

/** A value of one column and how often it came in the rows read. */
export const ColumnValue = z.object({ value: z.string(), count: z.number().int().nonnegative() });
export type ColumnValue = z.infer<typeof ColumnValue>;

export const MappingZone = z.object({
  epsg: z.number().int(),
  name: z.string(),
  unit: z.enum(['m', 'us-ft', 'ft']),
  /** The file's X/Y fall inside this zone's area of use (offered first). */
  fits: z.boolean(),
});
export type MappingZone = z.infer<typeof MappingZone>;

/** How sure the proposal is of one of Blotter's fields, and why (the page opens on the first not `sure`). */
export const ProposalCertainty = z.object({
  field: z.enum(['id', 'type', 'address', 'date', 'location']),
  /** `sure`: the columns' names and content agree; `guess`: check it; `none`: nothing was proposed. */
  level: z.enum(['sure', 'guess', 'none']),
  note: z.string(),
});
export type ProposalCertainty = z.infer<typeof ProposalCertainty>;

export const ImportInspection = z.object({
  /** The file as the engine holds it, for previewMapped and saveMapping. */
  fileId: FileId,
  fileName: z.string(),
  /** The columns are Blotter's or the API's own: the file imports without a mapping. */
  ownColumns: z.boolean(),
  columns: z.array(z.string()),
  /** The first rows, as text keyed by column. */
  sample: z.array(z.record(z.string(), z.string())),
  /** Records read for `values`. */
  rowsRead: z.number().int().nonnegative(),
  /** Each column's distinct values, most frequent first (at most MAX_VALUES; `more`: there were more). */
  values: z.record(z.string(), z.object({ top: z.array(ColumnValue), more: z.boolean() })),
  /** A first mapping by column names and content (complete or not), or the saved one for this header. */
  proposal: ColumnMapping.partial(),
  /** How sure the proposal is of each field, in the page's order (none for a saved mapping). */
  certainty: z.array(ProposalCertainty).optional(),
  /** The mapping saved for the same header shape, when there is one (then it is the proposal). */
  saved: z.string().optional(),
  /** The bundled State Plane and UTM zones, those fitting the file's X/Y first. */
  zones: z.array(MappingZone),
});
export type ImportInspection = z.infer<typeof ImportInspection>;

export const SavedMappingInfo = z.object({ name: z.string(), savedAt: z.number(), columns: z.number() });

export const importMappingCalls = {
  /** Reads a file's columns and first rows and proposes a mapping (the host chooses the file). */
  inspectImport: {
    input: z.object({ source: ImportSource.optional() }).strict(),
    output: ImportInspection,
    answeredBy: 'host-then-engine',
  },
  /** Previews the inspected file through `mapping` (none: as Blotter's own columns). Nothing is written. */
  previewMapped: {
    input: z.object({ fileId: FileId, mapping: ColumnMapping.optional() }).strict(),
    output: ImportPreview,
  },
  /** Saves `mapping` by its name for the inspected file's header shape (a later one of that name replaces it). */
  saveMapping: {
    input: z.object({ fileId: FileId, mapping: ColumnMapping }).strict(),
    output: z.object({ saved: z.string() }),
  },
  /** The mappings saved in this data folder. */
  listMappings: { input: Empty, output: z.object({ mappings: z.array(SavedMappingInfo) }) },
  /** A saved mapping by its name (the CLI's `import --mapping NAME`); not_found names the saved ones. */
  getMapping: { input: z.object({ name: z.string().min(1).max(100) }).strict(), output: ColumnMapping },
} as const;

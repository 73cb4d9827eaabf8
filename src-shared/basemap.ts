/**
 * The map's street basemap: none (the bundled boundaries and place labels only), a local
 * .mbtiles/.pmtiles file, or an online tile URL the user typed. The engine reads files and fetches
 * online tiles (caching only the tiles actually viewed); the renderer asks it for one tile at a time,
 * so the page's Content-Security-Policy never has to allow another host. Pure zod.
 */
import { z } from 'zod';
import { outboundProblem } from './outboundRule';

const TEMPLATE_HELP = 'Use a URL such as https://tiles.example.org/{z}/{x}/{y}.png';

/** An online tile URL template: http(s), with {z}, {x} and {y}; {s} picks a subdomain (a, b, c). */
export const TileUrlTemplate = z
  .string()
  .trim()
  .max(500, 'The tile URL is too long.')
  .refine(
    (u) => /^https?:\/\/[^/?#\s]+\//i.test(u),
    `The tile URL must start with http:// or https://. ${TEMPLATE_HELP}`,
  )
  .refine(
    (u) => ['{z}', '{x}', '{y}'].every((p) => u.includes(p)),
    `The tile URL needs {z}, {x} and {y}. ${TEMPLATE_HELP}`,
  )
  .refine((u) => !/\s/.test(u), 'The tile URL may not contain spaces.');

export const BasemapSetting = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }).strict(),
  z
    .object({
      kind: z.literal('file'),
      path: z
        .string()
        .trim()
        .min(1, 'Enter the path of a .mbtiles or .pmtiles file.')
        .max(4096)
        .refine((p) => /\.(mbtiles|pmtiles)$/i.test(p), 'The file must end in .mbtiles or .pmtiles.'),
    })
    .strict(),
  z
    .object({
      kind: z.literal('url'),
      template: TileUrlTemplate,
      /** Shown on the map, as text. Tile providers require it (e.g. "© OpenStreetMap contributors"). */
      attribution: z.string().trim().min(1, 'Enter the attribution the tile provider asks for.').max(300),
    })
    .strict(),
]);
export type BasemapSetting = z.infer<typeof BasemapSetting>;

export const DEFAULT_BASEMAP: BasemapSetting = { kind: 'none' };

/** What the renderer needs to draw the street layer, or why it cannot. */
export const BasemapInfo = z.object({
  /** extract: no file or URL is set and the areas' extract (<data>/basemap/areas.pmtiles) is drawn. */
  kind: z.enum(['none', 'file', 'url', 'extract']),
  /** 'ready': tiles can be asked for; 'error': `problem` says what is wrong in plain words. */
  status: z.enum(['none', 'ready', 'error']),
  problem: z.string().nullable(),
  /** Plain text (never HTML); the map shows it whenever the layer is on. */
  attribution: z.string().nullable(),
  name: z.string().nullable(),
  /** raster: png/jpeg/webp tiles; mvt: vector tiles (Protomaps schema), drawn with protomaps-leaflet. */
  format: z.enum(['png', 'jpeg', 'webp', 'mvt', 'unknown']).nullable(),
  minZoom: z.number().int(),
  maxZoom: z.number().int(),
  /** [west, south, east, north] when the source says so. */
  bounds: z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable(),
  /** Online only: tiles held in the local tile cache, and their bytes. */
  cache: z.object({ tiles: z.number().int(), bytes: z.number().int() }).nullable(),
});
export type BasemapInfo = z.infer<typeof BasemapInfo>;

export const TileCoord = z
  .object({
    z: z.number().int().min(0).max(24),
    x: z.number().int().min(0),
    y: z.number().int().min(0),
  })
  .strict()
  .refine((c) => c.x < 2 ** c.z && c.y < 2 ** c.z, { message: 'The tile is outside the world at its zoom.' });
export type TileCoord = z.infer<typeof TileCoord>;

export const TileBytes = z.object({
  bytes: z.custom<Uint8Array>((v) => v instanceof Uint8Array, 'Expected the tile bytes.'),
  contentType: z.string(),
});
export type TileBytes = z.infer<typeof TileBytes>;

// ---------------------------------------------------------------------------------------------
// Offline extracts of a remote PMTiles archive for the watched areas (engine/basemap/download.ts).

/** Where the areas' extract is read from: an http(s) URL of a PMTiles v3 archive (outbound rules). */
export const BasemapSourceUrl = z
  .string()
  .trim()
  .max(2000, 'The basemap source URL is too long.')
  .refine(
    (u) => /^https?:\/\/[^/?#\s]+\/\S*$/i.test(u),
    'Enter the http(s) URL of a .pmtiles archive, such as https://build.protomaps.com/20260101.pmtiles',
  )
  .superRefine((u, ctx) => {
    const problem = /^https?:\/\//i.test(u) ? outboundProblem(u, 'tiles') : null;
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const BasemapDownloadInput = z
  .object({
    /** Default: the stored setting `basemapSource`. */
    source: BasemapSourceUrl.optional(),
    maxZoom: z.number().int().min(0).max(16).optional(),
    /** Forget an unfinished download of another build (after "the source changed"). */
    startOver: z.boolean().optional(),
  })
  .strict();
export type BasemapDownloadInput = z.infer<typeof BasemapDownloadInput>;

export const BasemapEstimate = z.object({
  source: z.string(),
  areas: z.number().int(),
  tiles: z.number().int(),
  /** The tiles' distinct contents plus the source's directories read to find them. */
  bytes: z.number(),
  tilesToFetch: z.number().int(),
  /** Tile contents and directories still to fetch. */
  bytesToFetch: z.number(),
  requests: z.number().int(),
  resumed: z.boolean(),
  minZoom: z.number().int(),
  maxZoom: z.number().int(),
  /** Free bytes on the data folder's disk. */
  freeBytes: z.number(),
  /** Tiles taken from the existing extract (same source build) instead of downloaded again. */
  reusedTiles: z.number().int().optional(),
  /**
   * An extract exists but was built from another version of the source (another etag or header):
   * the download rebuilds it whole from the new version ("start over with the new version").
   */
  newVersion: z.boolean().optional(),
  /** Of `bytes`, the source's directories (header, root, metadata, leaves): at most 64 MB. */
  directoryBytes: z.number().optional(),
});
export type BasemapEstimate = z.infer<typeof BasemapEstimate>;

/**
 * Does the areas' extract cover every area? An area is covered when its bounding box plus the 1 km
 * margin lies inside the tiles the extract was built for (at its top zoom). `offerExtend` is the
 * engine's decision to offer "Extend offline map to this area": a source is set, the extract exists
 * and is what the map draws (no file or tile URL set), and some area is not covered.
 */
export const BasemapCoverage = z.object({
  source: z.string().nullable(),
  extract: z
    .object({
      maxZoom: z.number().int(),
      /** When it was written (ms since the epoch), from the file. */
      builtAt: z.number(),
      bytes: z.number(),
    })
    .nullable(),
  areas: z.array(z.object({ areaId: z.number().int(), covered: z.boolean() })),
  offerExtend: z.boolean(),
});
export type BasemapCoverage = z.infer<typeof BasemapCoverage>;

export const BasemapProgressFields = z.object({
  state: z.enum(['running', 'done', 'failed', 'cancelled']),
  tilesDone: z.number().int(),
  tilesTotal: z.number().int(),
  bytesDone: z.number(),
  bytesTotal: z.number(),
  secondsLeft: z.number().nullable(),
  /** state 'done': the file written. */
  file: z.string().optional(),
  /** state 'failed': the extract's problem code (source_changed, no_range_support, no_space…). */
  problem: z.string().optional(),
  /** state 'failed': what went wrong, in plain words. */
  message: z.string().optional(),
});
export type BasemapProgressFields = z.infer<typeof BasemapProgressFields>;

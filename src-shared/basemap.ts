/**
 * The map's street basemap: none (the bundled boundaries and place labels only), a local
 * .mbtiles/.pmtiles file, or an online tile URL the user typed. The engine reads files and fetches
 * online tiles (caching only the tiles actually viewed); the renderer asks it for one tile at a time,
 * so the page's Content-Security-Policy never has to allow another host. Pure zod.
 */
import { z } from 'zod';

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
  kind: z.enum(['none', 'file', 'url']),
  /** 'ready': tiles can be asked for; 'error': `problem` says what is wrong in plain words. */
  status: z.enum(['none', 'ready', 'error']),
  problem: z.string().nullable(),
  /** Plain text (never HTML); the map shows it whenever the layer is on. */
  attribution: z.string().nullable(),
  name: z.string().nullable(),
  /** raster: png/jpeg/webp tiles; vector: MVT, which Blotter does not draw (status 'error'). */
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

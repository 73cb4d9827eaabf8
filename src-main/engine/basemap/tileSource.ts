/** A source of basemap tiles in XYZ numbering (y down, as Leaflet asks), read by the engine. */
import type { BasemapInfo, TileBytes, TileCoord } from '../../../src-shared/basemap';

export type SourceInfo = Omit<BasemapInfo, 'kind' | 'status' | 'problem' | 'cache'>;

export interface TileSource {
  info(): Promise<SourceInfo>;
  /** The tile's bytes, or null when the source has no such tile. */
  tile(coord: TileCoord): Promise<TileBytes | null>;
  close(): Promise<void>;
  /** Online sources: what the local tile cache holds. */
  stats?(): { tiles: number; bytes: number };
}

/** A problem the user can fix, in plain words (a missing file, a vector file, a bad URL…). */
export class BasemapProblem extends Error {
  constructor(
    message: string,
    /** offline: the server could not be reached; refused: its address or answer broke the outbound rules. */
    readonly kind: 'offline' | 'refused' = 'offline',
  ) {
    super(message);
    this.name = 'BasemapProblem';
  }
}

export const clampZoom = (z: number): number => Math.max(0, Math.min(24, Math.round(z)));

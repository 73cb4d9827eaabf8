/** Messages between the page and the cluster worker. Typed arrays travel as transferables. */
import type { ClusterBatch } from './clusterIndex';
import type { HeatImage, HeatView } from './heatGrid';
import type { BBox } from './projection';
import type { PointColumns } from './sites';

export type ToWorker =
  | { id: number; type: 'load'; points: PointColumns }
  | { id: number; type: 'clusters'; generation: number; bbox: BBox; zoom: number; view?: BBox }
  | { id: number; type: 'heat'; generation: number; view: HeatView }
  | { id: number; type: 'expand'; generation: number; clusterId: number }
  | { id: number; type: 'extent'; generation: number; clusterId: number }
  | { id: number; type: 'incidents'; generation: number; target: number; limit: number };

export type LoadedInfo = {
  generation: number;
  incidents: number;
  sites: number;
  types: string[];
  totals: Uint32Array;
  bounds: BBox | null;
  buildMs: number;
};

export type IncidentList = { cdid: Float64Array; typeIndex: Uint8Array; total: number };

export type FromWorker =
  | { id: number; type: 'loaded'; info: LoadedInfo }
  | { id: number; type: 'clusters'; generation: number; batch: ClusterBatch; ms: number }
  | { id: number; type: 'heat'; generation: number; image: HeatImage }
  | { id: number; type: 'expand'; generation: number; zoom: number }
  | { id: number; type: 'extent'; generation: number; bbox: BBox }
  | { id: number; type: 'incidents'; generation: number; list: IncidentList }
  | { id: number; type: 'error'; message: string };

/** The Crime Incident Data API simulator: start it in-process, or run `npm run sim`. */
export { startSimulator } from './simulator';
export { parseKeysFile, validateKeys } from './keys';
export { SCALES } from './types';
export type { Scale, SimCity, Simulator, SimulatorOptions, GroundTruthQuery } from './types';
export type { SimClock, ClockMode } from './clock';
export type { SimKey } from './http/access';
export type { Faults, Storm429 } from './http/faults';
export type { SimStats, KeyStats } from './http/stats';
export type { SinceBeforeWindow } from './http/context';
export type { EvolveOptions, EvolveResult } from './data/evolve';
export type { BigBlock, Fixtures } from './data/fixtures';
export type {
  LiveIncident,
  LiveDetail,
  V1Incident,
  V1HistoryIncident,
  TruthIncident,
} from './data/serialize';
export { SITE } from './data/serialize';
export { MAX_RADIUS_DEG, MAX_RECORDS, DEFAULT_RECORDS } from './http/live';
export { MAX_RADIUS_MI, MAX_LIMIT, DEFAULT_LIMIT, HISTORY_DAYS } from './http/v1';

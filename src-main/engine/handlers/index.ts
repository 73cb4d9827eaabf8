/**
 * Every call's handler. To add a domain: write handlers/<domain>.ts exporting
 * `export const <domain>Handlers = { ... } satisfies HandlerGroup;`, then import it here and add it
 * to the list. The `Handlers` annotation makes an engine-answered call without a handler a type
 * error; host-answered calls (the contract's `answeredBy: 'host'`) have none.
 */
import { analysisHandlers } from './analysis';
import { alertHandlers } from './alerts';
import { apiKeyHandlers } from './apiKey';
import { appHandlers } from './app';
import { areaHandlers } from './areas';
import { basemapHandlers } from './basemap';
import { connectionHandlers } from './connection';
import { exportHandlers } from './exports';
import type { Handlers } from './handler';
import { importHandlers } from './imports';
import { incidentHandlers } from './incidents';
import { layerHandlers } from './layers';
import { officeHandlers } from './office';
import { reportScheduleHandlers } from './reportSchedules';
import { placesHandlers } from './places';
import { settingsHandlers } from './settings';
import { syncHandlers } from './sync';
import { mergeHandlers } from './handler';

export const handlers: Handlers = mergeHandlers(
  appHandlers,
  settingsHandlers,
  apiKeyHandlers,
  areaHandlers,
  syncHandlers,
  incidentHandlers,
  basemapHandlers,
  connectionHandlers,
  exportHandlers,
  importHandlers,
  analysisHandlers,
  alertHandlers,
  officeHandlers,
  layerHandlers,
  reportScheduleHandlers,
  placesHandlers,
);

export type { Handler, HandlerGroup, Handlers } from './handler';

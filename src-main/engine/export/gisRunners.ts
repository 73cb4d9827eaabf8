/** The runners of the GIS formats, for the export service's table of runners (services.ts). */
import { gpkgRunner } from './gpkgExport';
import { kmlRunner } from './kmlExport';
import { shpRunner } from './shpExport';

export const gisRunners = { gpkg: gpkgRunner, shp: shpRunner, kml: kmlRunner };

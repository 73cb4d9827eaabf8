/**
 * A KMZ — what Google Earth saves and Google My Maps exports: a zip holding a KML (`doc.kml` at
 * its root by convention, else the first `.kml` it lists, as Google Earth reads it) and perhaps
 * icons and overlays, which are not boundaries. The zip is read by zipRead.ts's rules like a
 * zipped Shapefile; the KML by kmlRead.ts's. A zip is a KMZ when it holds a KML and no `.shp`.
 * A `doc.kml` that only links to KML files inside the KMZ (NetworkLink, as GDAL's LIBKML writes a
 * KMZ: `layers/NAME.kml`) is read as those files' placemarks in turn; a link out of the KMZ (a
 * web address) is never followed.
 */
import path from 'node:path';
import { BoundaryProblem, type BoundaryFile } from './boundaryFile';
import { readKml, type KmlBudget } from './kmlRead';
import { descendants, parseXml } from './xmlRead';
import type { ZipArchive, ZipEntry } from './zipRead';

const listed = (e: ZipEntry) => !path.basename(e.name).startsWith('._') && !e.name.startsWith('__MACOSX/');

/** The zip's KML entry when it is a KMZ (a KML and no .shp), else null. */
export function kmzEntry(zip: ZipArchive): ZipEntry | null {
  const entries = zip.entries.filter(listed);
  if (entries.some((e) => e.name.toLowerCase().endsWith('.shp'))) return null;
  const kmls = entries.filter((e) => e.name.toLowerCase().endsWith('.kml'));
  return kmls.find((e) => e.name.toLowerCase() === 'doc.kml') ?? kmls[0] ?? null;
}

/** Linked KML files read from one KMZ at most. */
const MAX_LINKED = 100;

export function readKmz(zip: ZipArchive, entry: ZipEntry): BoundaryFile {
  const text = textOf(zip, entry);
  // One budget of corners and elements for the KMZ: 50 linked files of the limit each would
  // otherwise take the engine's whole memory.
  const budget: KmlBudget = { corners: 0, elements: 0 };
  const main = readKml(text, budget);
  if (main.features.length > 0 || main.skipped.length > 0) return main;
  // Only links: the KML files they name inside the KMZ, relative to the main file's folder.
  const folder = path.posix.dirname(entry.name);
  const linked = descendants(parseXml(text), 'NetworkLink')
    .flatMap((link) => descendants(link, 'href').map((h) => h.text.trim()))
    .filter((href) => href !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(href))
    .map((href) => path.posix.normalize(path.posix.join(folder, href)).toLowerCase());
  const files = zip.entries.filter((e) => listed(e) && linked.includes(e.name.toLowerCase()));
  if (files.length > MAX_LINKED)
    throw new BoundaryProblem(`The KMZ links ${files.length} KML files; at most ${MAX_LINKED} are read.`);
  const out: BoundaryFile = { ...main, features: [], fields: [], skipped: [] };
  let offset = 0;
  for (const file of files) {
    const part = readKml(textOf(zip, file), budget);
    out.features.push(...part.features.map((f) => ({ ...f, index: f.index + offset })));
    out.skipped.push(...part.skipped.map((s) => ({ ...s, index: s.index + offset })));
    for (const field of part.fields) if (!out.fields.includes(field)) out.fields.push(field);
    offset += part.features.length + part.skipped.length;
  }
  return out;
}

function textOf(zip: ZipArchive, entry: ZipEntry): string {
  return zip
    .read(entry)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
}

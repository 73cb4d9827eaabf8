/**
 * KML export (OGC KML 2.2): one Placemark per incident — its type as the name, its instant as a
 * TimeStamp, a style per type
 * (a colour from a fixed palette, in the order of the archive's types), the export columns as
 * ExtendedData — and the saved areas as outlined polygons in a folder of their own. Coordinates
 * are lon,lat (WGS 84, EPSG:4326, as KML requires). Text is XML-escaped; characters XML 1.0 does
 * not allow (control characters) are left out; a carriage return is written as a character
 * reference, so it survives XML's line-end rule.
 */
import { EXPORT_COLUMNS, type ExportRow } from './rows';
import { FileSink } from '../files/fileSink';
import { keptCell, keptColumnsInSlices, keptLabel, keptNames, keptValuesOf } from './keptColumns';
import { areaOutlines, dictionaryOf, exportRowBatches, runnerOf, type Writer } from './gisRows';

/** KML colours are aabbggrr. */
const PALETTE = [
  'ff3c14dc',
  'ff0080ff',
  'ff00d7ff',
  'ff32cd32',
  'ffd9a000',
  'ffe16941',
  'ffb469ff',
  'ff13458b',
  'ff808080',
  'ff800080',
];

/**
 * The colour of the k-th type: the palette for the first ten (every type the API has), then hues
 * a golden angle apart at three lightnesses, so an archive with imported types still tells each
 * type apart by colour.
 */
export function colourOf(k: number): string {
  const fixed = PALETTE[k];
  if (fixed !== undefined) return fixed;
  const h = (k * 137.508) % 360;
  const [s, l] = [0.8, [0.45, 0.62, 0.32][k % 3] as number];
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs(((h / 60) % 2) - 1));
  const [r, g, b] =
    h < 60
      ? [c, x, 0]
      : h < 120
        ? [x, c, 0]
        : h < 180
          ? [0, c, x]
          : h < 240
            ? [0, x, c]
            : h < 300
              ? [x, 0, c]
              : [c, 0, x];
  const hex = (v: number) =>
    Math.round((v + l - c / 2) * 255)
      .toString(16)
      .padStart(2, '0');
  return `ff${hex(b)}${hex(g)}${hex(r)}`;
}

const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function xmlText(value: unknown): string {
  return String(value ?? '')
    .replace(NOT_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\r/g, '&#13;'); // a parser turns a raw CR (and CRLF) into LF
}

export const styleIdOf = (index: number): string => `type-${index}`;

export function kmlHead(title: string, types: readonly string[]): string {
  const styles = types
    .map(
      (t, k) =>
        `<Style id="${styleIdOf(k)}"><IconStyle><color>${colourOf(k)}</color><scale>0.8</scale>` +
        `<Icon><href>http://maps.google.com/mapfiles/kml/shapes/placemark_circle.png</href></Icon></IconStyle>` +
        `<LabelStyle><scale>0</scale></LabelStyle></Style>`,
    )
    .join('\n');
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2">\n<Document>\n` +
    `<name>${xmlText(title)}</name>\n` +
    `<Style id="area"><LineStyle><color>ffd9a000</color><width>2</width></LineStyle><PolyStyle><color>33d9a000</color></PolyStyle></Style>\n` +
    `${styles}\n<Folder><name>Incidents</name>\n`
  );
}

/** A kept column (keptColumns.ts): its key and its Data name in the file. */
export type KeptData = { key: string; name: string };

export function placemark(row: ExportRow, styleIndex: number, kept: readonly KeptData[] = []): string {
  let data = EXPORT_COLUMNS.map((c) => `<Data name="${c}"><value>${xmlText(row[c])}</value></Data>`).join('');
  if (kept.length > 0 && row.attributes !== null) {
    const values = keptValuesOf(row);
    for (const k of kept) {
      const v = keptCell(values, k.key);
      if (v !== null) data += `<Data name="${xmlText(k.name)}"><value>${xmlText(v)}</value></Data>`;
    }
  }
  return (
    // The instant as KML states time (a TimeStamp, before styleUrl in the schema's order): QGIS
    // reads it as a DateTime field, Google Earth puts it on its time slider.
    `<Placemark><name>${xmlText(row.type)}</name><TimeStamp><when>${row.occurred_utc}</when></TimeStamp>` +
    `<styleUrl>#${styleIdOf(styleIndex)}</styleUrl>` +
    `<ExtendedData>${data}</ExtendedData><Point><coordinates>${row.lon},${row.lat}</coordinates></Point></Placemark>\n`
  );
}

export const kmlRunner = runnerOf(kmlWriter());

export function kmlWriter(): Writer {
  return (job, ctx, onWritten) => {
    const sink = new FileSink(job.dest.path, job.id);
    const run = async () => {
      const types = dictionaryOf(job, 'types');
      const styleOf = new Map(types.map((t, k) => [t, k]));
      // The archive's kept columns, read in slices (a scan of every mapped row: keptColumns.ts).
      const { kept: keptColumns } = await keptColumnsInSlices(ctx.db);
      const names = keptNames(EXPORT_COLUMNS, keptColumns);
      const kept = keptColumns.map((k, i) => ({ key: k.key, name: names[i] as string }));
      await sink.write(kmlHead(job.dest.name, types));
      let written = 0;
      for await (const rows of exportRowBatches(job, ctx)) {
        if (job.cancelRequested) return null;
        await sink.write(rows.map((r) => placemark(r, styleOf.get(r.type) ?? 0, kept)).join(''));
        written += rows.length;
        onWritten(written);
      }
      if (job.cancelRequested) return null;
      let tail = '</Folder>\n<Folder><name>Areas</name>\n';
      for (const a of areaOutlines(job, ctx)) {
        const ring = (r: [number, number][]) =>
          `<LinearRing><coordinates>${r.map(([lat, lon]) => `${lon},${lat}`).join(' ')}</coordinates></LinearRing>`;
        const [outer = [], ...holes] = a.rings;
        tail +=
          `<Placemark><name>${xmlText(a.name)}</name><styleUrl>#area</styleUrl><Polygon>` +
          `<outerBoundaryIs>${ring(outer)}</outerBoundaryIs>` +
          holes.map((h) => `<innerBoundaryIs>${ring(h)}</innerBoundaryIs>`).join('') +
          `</Polygon></Placemark>\n`;
      }
      await sink.write(`${tail}</Folder>\n</Document>\n</kml>\n`);
      return {
        bytes: await sink.finish(),
        written,
        file: sink,
        fileInfo: {
          crs: 'EPSG:4326' as const,
          ...(kept.length > 0
            ? { fieldNames: Object.fromEntries(kept.map((k) => [k.name, keptLabel(k.key)])) }
            : {}),
        },
      };
    };
    return { done: run(), cleanup: () => sink.abort() };
  };
}

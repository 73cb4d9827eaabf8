/**
 * `layers import | list | count | rename | remove`: reference layers (beats, districts, schools,
 * parks) through the same calls as the Map view's Layers panel. `import FILE --name N` reads a
 * GeoJSON, zipped Shapefile or KML (previewBoundaries, the CLI naming the file as a host) and keeps
 * it (importLayer), or with `--as-areas` saves its polygons as areas to sync (areasFromBoundaries;
 * `--feature NAME`, repeatable, only those named so).
 * `count --layer N --buffer-ft 1000` counts the incidents matching the export's filters within
 * that distance of each feature (countNearLayer); the last stdout line is JSON.
 */
import path from 'node:path';
import type { LayerView } from '../../src-shared/layerCalls';
import { one, parseId, UsageError, type Parsed } from './args';
import { distanceFlags, exportFilters, FILTER_FLAGS, layerOf } from './filterFlags';
import { EXIT, type Io } from './io';
import { withSession } from './session';

export const LAYERS_FLAGS = {
  values: [
    'data-dir',
    ...FILTER_FLAGS, // --layer and --buffer-* are count's own; --feature is import's (--as-areas)
    'name',
    'name-field',
  ],
  booleans: ['as-areas', 'include-removed', 'help'],
  words: 2,
};

export async function layersCommand(p: Parsed, io: Io): Promise<number> {
  const [action, arg] = p.words;
  const none = () => {
    if (arg !== undefined) throw new UsageError(`Unexpected argument "${arg}".`);
  };
  if (action === 'import') {
    if (arg === undefined) throw new UsageError('Give the file: blotter layers import FILE --name N.');
    return importLayer(p, io, arg);
  }
  if (action === 'list') return (none(), list(p, io));
  if (action === 'count') return (none(), count(p, io));
  if (action === 'rename') return rename(p, io, parseId('layer id', arg));
  if (action === 'remove') return remove(p, io, parseId('layer id', arg));
  throw new UsageError(
    'Say what to do: layers import FILE --name N [--as-areas], layers list, layers count --layer N --buffer-ft D, layers rename ID --name N, layers remove ID.',
  );
}

const kindWords = (l: LayerView): string =>
  l.kinds.map((k) => (k === 'polygons' ? 'polygons' : 'points')).join(' and ') || 'nothing';

async function importLayer(p: Parsed, io: Io, file: string): Promise<number> {
  const asAreas = p.flags.has('as-areas');
  const name = asAreas ? one(p, 'name') : one(p, 'name', true);
  return withSession(io, one(p, 'data-dir'), async (s) => {
    const preview = await s.call('previewBoundaries', { source: { path: path.resolve(file) } });
    const field = one(p, 'name-field') ?? preview.nameField;
    if (field !== null && !preview.fields.includes(field))
      throw new UsageError(
        `--name-field: the file has no attribute "${field}" (it has ${preview.fields.join(', ')}).`,
      );
    io.out(
      `${preview.fileName}: ${preview.featureCount} features (${preview.kinds.join(' and ')}), ${preview.crs}; names from ${field ?? '(none)'}.\n`,
    );
    for (const s2 of preview.skipped.slice(0, 5)) io.out(`  feature ${s2.index} left out: ${s2.reason}\n`);
    if (asAreas) {
      const names = p.values.get('feature');
      const made = await s.call('areasFromBoundaries', {
        previewId: preview.previewId,
        nameField: field,
        ...(names ? { names } : {}),
      });
      for (const a of made.areas) io.out(`Area ${a.id} "${a.name}" added.\n`);
      for (const note of made.notes) io.out(`  ${note}\n`);
      io.out(`${JSON.stringify({ areas: made.areas.map((a) => ({ id: a.id, name: a.name })) })}\n`);
      return EXIT.ok;
    }
    const layer = await s.call('importLayer', {
      previewId: preview.previewId,
      name: name as string,
      nameField: field,
    });
    io.out(`Layer ${layer.id} "${layer.name}": ${layer.featureCount} features kept.\n`);
    io.out(`${JSON.stringify({ layer: layer.id, name: layer.name, features: layer.featureCount })}\n`);
    return EXIT.ok;
  });
}

async function list(p: Parsed, io: Io): Promise<number> {
  return withSession(io, one(p, 'data-dir'), async (s) => {
    const { layers } = await s.call('listLayers', {});
    if (layers.length === 0) io.out('No reference layers yet (blotter layers import FILE --name N).\n');
    for (const l of layers)
      io.out(
        `${l.id}\t${l.name}\t${l.featureCount} features (${kindWords(l)})\tfrom ${l.sourceName}\t${l.crs}\n`,
      );
    return EXIT.ok;
  });
}

async function count(p: Parsed, io: Io): Promise<number> {
  const layerText = one(p, 'layer', true);
  const { metres, unit, given } = distanceFlags(p);
  if (p.values.has('feature'))
    throw new UsageError(
      'layers count counts near every feature of --layer; to count inside one feature, give export or analyze --layer N --feature NAME.',
    );
  const filters = exportFilters(p);
  return withSession(io, one(p, 'data-dir'), async (s) => {
    const layer = await layerOf(s, layerText);
    const r = await s.call('countNearLayer', { filters, layerId: layer.id, bufferM: metres });
    const within = metres > 0 ? `within ${given.toLocaleString('en-US')} ${unit} of` : 'inside';
    for (const f of r.features) io.out(`${f.count}\t${f.name}\n`);
    io.out(
      `${r.total} of ${r.filtered} matching incidents are ${within} a feature of "${layer.name}" (each counted once).\n`,
    );
    io.out(
      `${JSON.stringify({ layer: layer.id, name: layer.name, bufferM: r.bufferM, total: r.total, filtered: r.filtered, features: r.features })}\n`,
    );
    return EXIT.ok;
  });
}

async function rename(p: Parsed, io: Io, id: number): Promise<number> {
  const name = one(p, 'name', true);
  return withSession(io, one(p, 'data-dir'), async (s) => {
    const l = await s.call('renameLayer', { layerId: id, name });
    io.out(`Layer ${l.id} is now "${l.name}".\n`);
    return EXIT.ok;
  });
}

async function remove(p: Parsed, io: Io, id: number): Promise<number> {
  return withSession(io, one(p, 'data-dir'), async (s) => {
    await s.call('deleteLayer', { layerId: id });
    io.out(`Layer ${id} removed (its areas, if any were made from it, stay).\n`);
    return EXIT.ok;
  });
}

/**
 * The Map view's Layers panel: import boundary files, show reference layers on the map with their
 * names, filter the incidents by one feature (inside it, or within a distance: the filter bar shows
 * it as a chip, and every view follows), and count the filtered incidents within a distance of each
 * feature ("within 1,000 ft of a school") with the distinct total.
 */
import type * as L from 'leaflet';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { BufferCountResult, LayerFeatureView, LayerView } from '../../src-shared/layerCalls';
import { useFilters } from '../filters/FiltersContext';
import { useCall } from '../bridge/useCall';
import { count as countText } from '../text/count';
import { errorText } from '../text/errorText';
import { useWorkspace } from '../workspace/WorkspaceContext';
import { BoundaryImport } from './BoundaryImport';
import { DeleteLayerConfirm } from './DeleteLayerConfirm';
import { forgetLayer, layerFeatures, toMetres } from './layerFeatures';
import { drawReferenceLayer, LAYER_COLOURS, type LabelTheme } from './referenceLayer';
import styles from './layers.module.css';

type Unit = 'ft' | 'm';

export function LayersPanel({ map, theme }: { map: L.Map | null; theme: LabelTheme }) {
  const id = useId();
  const { client, upsertArea } = useWorkspace();
  const { filters, update, dataVersion } = useFilters();
  const info = useCall(() => client.call('getAppInfo', {}), [client]);
  const web = info.data?.host === 'web';
  const [open, setOpen] = useState(false);
  const [layers, setLayers] = useState<LayerView[]>([]);
  const [shown, setShown] = useState<Set<number>>(new Set());
  const [chosen, setChosen] = useState<number | null>(null);
  const [features, setFeatures] = useState<LayerFeatureView[]>([]);
  const [featureId, setFeatureId] = useState<number | null>(null);
  const [distance, setDistance] = useState('0');
  const [unit, setUnit] = useState<Unit>('ft');
  const [counted, setCounted] = useState<BufferCountResult | null>(null);
  const [counting, setCounting] = useState<{ layerId: number; bufferM: number } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      const { layers: list } = await client.call('listLayers', {});
      setLayers(list);
      setChosen((c) => (c !== null && list.some((l) => l.id === c) ? c : (list[0]?.id ?? null)));
    } catch (failure) {
      setProblem(errorText(failure));
    }
  }, [client]);
  useEffect(() => void reload(), [reload]);

  // The chosen layer's features, for the feature picker.
  useEffect(() => {
    let live = true;
    setFeatures([]);
    setFeatureId(null);
    if (chosen === null) return;
    layerFeatures(client, chosen).then(
      (a) => {
        if (!live) return;
        setFeatures(a.features);
        setFeatureId(a.features[0]?.id ?? null);
      },
      (failure) => live && setProblem(errorText(failure)),
    );
    return () => {
      live = false;
    };
  }, [client, chosen]);

  // Shown layers on the map, the filtered feature heavier, a counted distance around points.
  const selected = filters.feature ?? null;
  useEffect(() => {
    if (!map) return;
    const undo: (() => void)[] = [];
    let live = true;
    layers.forEach((layer, k) => {
      if (!shown.has(layer.id)) return;
      void layerFeatures(client, layer.id).then((a) => {
        if (!live) return;
        const bufferM =
          selected?.layerId === layer.id
            ? selected.bufferM
            : counting?.layerId === layer.id
              ? counting.bufferM
              : undefined;
        undo.push(
          drawReferenceLayer(map, a.features, {
            colour: LAYER_COLOURS[k % LAYER_COLOURS.length] as string,
            theme,
            selectedId: selected?.layerId === layer.id ? selected.featureId : null,
            ...(bufferM ? { bufferM } : {}),
          }),
        );
      });
    });
    return () => {
      live = false;
      undo.forEach((u) => u());
    };
  }, [map, client, layers, shown, theme, selected, counting]);

  const metres = (): number | null => {
    const value = Number(distance.replace(/,/g, ''));
    if (!Number.isFinite(value) || value < 0) {
      setProblem('Give a distance of 0 or more.');
      return null;
    }
    return toMetres(value, unit);
  };

  const filterBy = () => {
    setProblem(null);
    const m = metres();
    if (m === null || chosen === null || featureId === null) return;
    update({ feature: { layerId: chosen, featureId, ...(m > 0 ? { bufferM: m, unit } : {}) } });
    setShown((s) => new Set(s).add(chosen));
  };

  const startCount = () => {
    setProblem(null);
    const m = metres();
    if (m === null || chosen === null) return;
    setCounting({ layerId: chosen, bufferM: m });
    setShown((s) => new Set(s).add(chosen));
  };

  // The count follows the filters and the archive once asked for.
  useEffect(() => {
    if (!counting) return;
    let live = true;
    setCounted(null);
    client.call('countNearLayer', { filters, layerId: counting.layerId, bufferM: counting.bufferM }).then(
      (r) => live && setCounted(r),
      (failure) => {
        if (!live) return;
        setProblem(errorText(failure));
        setCounting(null);
      },
    );
    return () => {
      live = false;
    };
  }, [client, filters, dataVersion, counting]);

  const [renaming, setRenaming] = useState<{ id: number; name: string } | null>(null);
  const rename = async () => {
    if (!renaming) return;
    try {
      await client.call('renameLayer', { layerId: renaming.id, name: renaming.name });
      forgetLayer(renaming.id);
      setRenaming(null);
      await reload();
    } catch (failure) {
      setProblem(errorText(failure));
    }
  };

  // Deleting asks first (DeleteLayerConfirm); a failure stays in its dialog.
  const [deleting, setDeleting] = useState<LayerView | null>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const remove = async (layer: LayerView) => {
    await client.call('deleteLayer', { layerId: layer.id });
    forgetLayer(layer.id);
    if (filters.feature?.layerId === layer.id) update({ feature: undefined });
    if (counting?.layerId === layer.id) setCounting(null);
    await reload();
    setDeleting(null);
  };

  const countedLayer = layers.find((l) => l.id === counted?.layerId);
  const within = (m: number) =>
    m > 0 ? `within ${countText(Math.round(unit === 'ft' ? m / 0.3048 : m))} ${unit} of` : 'inside';

  return (
    <div className={styles.layersDock}>
      <button
        type="button"
        ref={toggleRef}
        className={styles.layersToggle}
        aria-expanded={open}
        aria-controls={`${id}-panel`}
        onClick={() => setOpen(!open)}
      >
        Layers{layers.length ? ` (${layers.length})` : ''} {open ? '▴' : '▾'}
      </button>
      <section
        id={`${id}-panel`}
        className={`${styles.layersPanel} app-form`}
        hidden={!open}
        aria-label="Reference layers"
        data-testid="layers-panel"
      >
        <BoundaryImport
          client={client}
          web={web}
          onLayer={(layer) => {
            setShown((s) => new Set(s).add(layer.id));
            setChosen(layer.id);
            void reload();
          }}
          onAreas={(areas) => areas.forEach(upsertArea)}
        />
        {layers.length > 0 ? (
          <ul className={styles.layerList} aria-label="Layers on the map" ref={listRef}>
            {layers.map((layer, k) => (
              <li key={layer.id}>
                <span
                  className={styles.swatch}
                  style={{ background: LAYER_COLOURS[k % LAYER_COLOURS.length] }}
                  aria-hidden="true"
                />
                <label className="check">
                  <input
                    type="checkbox"
                    checked={shown.has(layer.id)}
                    onChange={(e) =>
                      setShown((s) => {
                        const next = new Set(s);
                        if (e.target.checked) next.add(layer.id);
                        else next.delete(layer.id);
                        return next;
                      })
                    }
                  />
                  {layer.name} ({countText(layer.featureCount)})
                </label>
                {renaming?.id === layer.id ? (
                  <form
                    className={styles.rename}
                    onSubmit={(e) => {
                      e.preventDefault();
                      void rename();
                    }}
                  >
                    <input
                      aria-label={`New name for ${layer.name}`}
                      value={renaming.name}
                      maxLength={100}
                      onChange={(e) => setRenaming({ id: layer.id, name: e.target.value })}
                    />
                    <button type="submit" disabled={!renaming.name.trim()}>
                      Save
                    </button>
                  </form>
                ) : (
                  <button
                    type="button"
                    className="link-button"
                    aria-label={`Rename the layer ${layer.name}`}
                    onClick={() => setRenaming({ id: layer.id, name: layer.name })}
                  >
                    Rename
                  </button>
                )}
                <button
                  type="button"
                  className="link-button"
                  aria-label={`Delete the layer ${layer.name}`}
                  onClick={() => setDeleting(layer)}
                >
                  Delete…
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">No reference layers yet: import beats, districts, schools or parks.</p>
        )}
        {layers.length > 0 ? (
          <div className={styles.section}>
            <div className={styles.grid}>
              <label htmlFor={`${id}-layer`}>Layer</label>
              <select
                id={`${id}-layer`}
                value={chosen ?? ''}
                onChange={(e) => setChosen(e.target.value ? Number(e.target.value) : null)}
              >
                {layers.map((l) => (
                  <option key={l.id} value={l.id}>
                    {l.name}
                  </option>
                ))}
              </select>
              <label htmlFor={`${id}-feature`}>Feature</label>
              <select
                id={`${id}-feature`}
                value={featureId ?? ''}
                onChange={(e) => setFeatureId(e.target.value ? Number(e.target.value) : null)}
              >
                {features.map((f) => (
                  <option key={f.id} value={f.id}>
                    {f.name}
                  </option>
                ))}
              </select>
              <label htmlFor={`${id}-distance`}>Distance</label>
              <span className={styles.distance}>
                <input
                  id={`${id}-distance`}
                  inputMode="decimal"
                  value={distance}
                  onChange={(e) => setDistance(e.target.value)}
                />
                <select aria-label="Unit" value={unit} onChange={(e) => setUnit(e.target.value as Unit)}>
                  <option value="ft">ft</option>
                  <option value="m">m</option>
                </select>
              </span>
            </div>
            <div className={styles.actions}>
              <button type="button" onClick={filterBy} disabled={featureId === null}>
                Filter by this feature
              </button>
              <button type="button" onClick={startCount}>
                Count near each feature
              </button>
            </div>
          </div>
        ) : null}
        {counting ? (
          <div className={styles.section} data-testid="buffer-count" aria-live="polite">
            {counted && countedLayer ? (
              <>
                <p data-testid="buffer-total">
                  <strong>{countText(counted.total)}</strong> of {countText(counted.filtered)} matching
                  incidents are {within(counted.bufferM)} a feature of “{countedLayer.name}” (each counted
                  once).
                </p>
                <table className={styles.counts}>
                  <thead>
                    <tr>
                      <th scope="col">Feature</th>
                      <th scope="col">Incidents</th>
                    </tr>
                  </thead>
                  <tbody>
                    {counted.features.map((f) => (
                      <tr key={f.id}>
                        <td>{f.name}</td>
                        <td data-testid="buffer-feature-count">{countText(f.count)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                <button type="button" className="link-button" onClick={() => setCounting(null)}>
                  Close the count
                </button>
              </>
            ) : (
              <p className="muted">Counting…</p>
            )}
          </div>
        ) : null}
        {problem ? (
          <p role="alert" className={styles.problem}>
            {problem}
          </p>
        ) : null}
      </section>
      {deleting ? (
        <DeleteLayerConfirm
          layer={deleting}
          filtering={filters.feature?.layerId === deleting.id}
          counting={counting?.layerId === deleting.id}
          onDelete={() => remove(deleting)}
          onCancel={() => setDeleting(null)}
          // Its Delete button went with it: the first layer left, else the panel's toggle.
          fallbackFocus={() => listRef.current?.querySelector('input') ?? toggleRef.current}
        />
      ) : null}
    </div>
  );
}

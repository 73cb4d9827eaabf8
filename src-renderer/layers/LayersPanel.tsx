/**
 * The Map view's Layers panel: import boundary files, show reference layers on the map with their
 * names, filter the incidents by one feature (inside it, or within a distance: the filter bar shows
 * it as a chip, and every view follows), and count the filtered incidents within a distance of each
 * feature ("within 1,000 ft of a school") with the distinct total.
 */
import type * as L from 'leaflet';
import { useCallback, useId, useRef, useState } from 'react';
import type { LayerView } from '../../src-shared/layerCalls';
import { useCall } from '../bridge/useCall';
import { useFilters } from '../filters/FiltersContext';
import { errorText } from '../text/errorText';
import { useWorkspace } from '../workspace/WorkspaceContext';
import { BoundaryImport } from './BoundaryImport';
import { BufferCount } from './BufferCount';
import { DeleteLayerConfirm } from './DeleteLayerConfirm';
import { FeatureFilterForm } from './FeatureFilterForm';
import { forgetLayer } from './layerFeatures';
import { LayerList } from './LayerList';
import type { LabelTheme } from './referenceLayer';
import { useLayerDrawing, type Counting } from './useLayerDrawing';
import { useLayerList } from './useLayerList';
import styles from './layers.module.css';

export function LayersPanel({ map, theme }: { map: L.Map | null; theme: LabelTheme }) {
  const id = useId();
  const { client, upsertArea } = useWorkspace();
  const { filters, update } = useFilters();
  const info = useCall(() => client.call('getAppInfo', {}), [client]);
  const web = info.data?.host === 'web';
  const [open, setOpen] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const { layers, reload } = useLayerList(client, setProblem);
  const [shown, setShown] = useState<ReadonlySet<number>>(new Set());
  const show = (layerId: number, on = true) =>
    setShown((s) => {
      const next = new Set(s);
      if (on) next.add(layerId);
      else next.delete(layerId);
      return next;
    });
  // The layer the form is about: the one last chosen while it exists, else the first.
  const [picked, setPicked] = useState<number | null>(null);
  const chosen = layers.some((l) => l.id === picked) ? picked : (layers[0]?.id ?? null);
  const [counting, setCounting] = useState<Counting | null>(null);
  const closeCount = useCallback(() => setCounting(null), []);
  useLayerDrawing(map, client, { layers, shown, theme }, filters.feature ?? null, counting);

  const rename = async (layerId: number, name: string) => {
    try {
      await client.call('renameLayer', { layerId, name });
      forgetLayer(layerId);
      await reload();
      return true;
    } catch (failure) {
      setProblem(errorText(failure));
      return false;
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
            show(layer.id);
            setPicked(layer.id);
            void reload();
          }}
          onAreas={(areas) => areas.forEach(upsertArea)}
        />
        <LayerList
          layers={layers}
          shown={shown}
          onShow={show}
          onRename={rename}
          onDelete={setDeleting}
          listRef={listRef}
        />
        {layers.length > 0 ? (
          <FeatureFilterForm
            client={client}
            layers={layers}
            chosen={chosen}
            onChoose={setPicked}
            onProblem={setProblem}
            onFilter={({ layerId, featureId, bufferM, unit }) => {
              update({ feature: { layerId, featureId, ...(bufferM > 0 ? { bufferM, unit } : {}) } });
              show(layerId);
            }}
            onCount={(count) => {
              setCounting(count);
              show(count.layerId);
            }}
          />
        ) : null}
        {counting ? (
          <BufferCount counting={counting} layers={layers} onClose={closeCount} onProblem={setProblem} />
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

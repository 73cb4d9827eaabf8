/**
 * Where: everywhere, a saved area, or the shape drawn on the map (the map sets it in the shared
 * filters; here it can be kept or dropped). Distances in the table are measured from its centre.
 */
import type { Filters } from '../../src-shared/filters';
import type { AreaView } from '../../src-shared/sync';
import { drawnShapeText } from '../areas/shapeText';
import styles from './filters.module.css';

export type AreaPickerProps = {
  area: Filters['area'];
  areas: AreaView[] | null;
  update: (patch: Partial<Filters>) => void;
};

export function AreaPicker({ area, areas, update }: AreaPickerProps) {
  const drawn = drawnShapeText(area);
  const value = !area ? '' : 'areaId' in area ? `area:${area.areaId}` : 'drawn';
  const known = area && 'areaId' in area ? (areas ?? []).some((a) => a.id === area.areaId) : true;
  return (
    <select
      className={styles.areaPicker}
      aria-label="Area"
      value={value}
      onChange={(e) => {
        const v = e.target.value;
        if (v === '') update({ area: undefined });
        else if (v.startsWith('area:')) update({ area: { areaId: Number(v.slice(5)) } });
      }}
    >
      <option value="">Everywhere</option>
      {(areas ?? []).map((a) => (
        <option key={a.id} value={`area:${a.id}`}>
          {a.name}
        </option>
      ))}
      {!known && area && 'areaId' in area ? (
        <option value={`area:${area.areaId}`}>A deleted area</option>
      ) : null}
      {drawn ? <option value="drawn">{drawn}</option> : null}
    </select>
  );
}

/** Type chips: a toggle per crime type with its colour and count; none pressed means every type. */
import { CRIME_TYPES } from '../../src-shared/crimeTypes';
import type { Filters } from '../../src-shared/filters';
import { count } from '../text/count';
import { chipTypes, toggleType } from './filterModel';
import { typeColor } from './typeColors';
import styles from './filters.module.css';

export type TypeChipsProps = {
  filters: Filters;
  byType: Record<string, number> | null;
  update: (patch: Partial<Filters>) => void;
};

export function TypeChips({ filters, byType, update }: TypeChipsProps) {
  const chosen = filters.types ?? [];
  const types = chipTypes(CRIME_TYPES, byType ?? {});
  return (
    <div className={styles.typeChips} role="group" aria-label="Crime types">
      {types.map((type) => {
        const pressed = chosen.includes(type);
        const n = byType?.[type];
        return (
          <button
            key={type}
            type="button"
            className={styles.chip}
            data-type={type}
            aria-pressed={pressed}
            data-dimmed={chosen.length > 0 && !pressed ? 'true' : undefined}
            onClick={() => update(toggleType(filters, type))}
            title={pressed ? `Stop filtering on ${type}` : `Show ${type}`}
          >
            <span className="swatch" style={{ background: typeColor(type) }} aria-hidden="true" />
            <span className="chip-label">{type}</span>
            <span className={styles.chipCount}>{n === undefined ? '–' : count(n)}</span>
          </button>
        );
      })}
      {chosen.length > 0 ? (
        <button type="button" className="link-button" onClick={() => update({ types: undefined })}>
          All types
        </button>
      ) : null}
    </div>
  );
}

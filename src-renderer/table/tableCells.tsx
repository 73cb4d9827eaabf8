/** The table's header sort button and its cells, one per column (columns.ts says what each reads). */
import type { Filters } from '../../src-shared/filters';
import type { SortKey } from '../../src-shared/incidentQueries';
import { typeColor } from '../filters/typeColors';
import type { CellContext, Column, TableRow } from './columns';
import { canSortBy, type Sort } from './sortState';
import styles from './table.module.css';

export function SortButton({
  col,
  sortKey,
  sort,
  filters,
  onSort,
}: {
  col: Column;
  sortKey: SortKey;
  sort: Sort;
  filters: Filters;
  onSort: (by: SortKey) => void;
}) {
  const can = canSortBy(sortKey, filters);
  return (
    <button
      type="button"
      className={styles.sortButton}
      disabled={!can}
      title={
        can
          ? `Sort by ${col.label.toLowerCase()}`
          : 'Choose an area in the filters to measure distances from its centre'
      }
      onClick={() => onSort(sortKey)}
    >
      {col.label}
      <span className="sort-mark" aria-hidden="true">
        {sort.by === sortKey ? (sort.dir === 'asc' ? '▲' : '▼') : ''}
      </span>
    </button>
  );
}

export function Cell({ col, row, ctx }: { col: Column; row: TableRow; ctx: CellContext }) {
  const text = col.text(row, ctx);
  const className =
    col.id === 'type' ? styles.cType : col.numeric || col.id === 'date' ? styles.cNumber : undefined;
  return (
    <div role="gridcell" className={className} data-column={col.id} title={text || undefined}>
      {col.id === 'type' ? (
        <span className="swatch" style={{ background: typeColor(row.type) }} aria-hidden="true" />
      ) : null}
      {col.id === 'flags' && text ? <span className="flag flag-removed">{text}</span> : text}
    </div>
  );
}

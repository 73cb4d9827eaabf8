/**
 * The incident table: a virtualized grid over the filtered incidents (only the rows in view exist
 * in the DOM), sortable by date, type, distance and address (aria-sort on each header), keyboard
 * driven (arrows, Page Up/Down, Home/End move; Enter opens the incident) and clickable. The columns
 * shown are the user's choice (columns.ts, ColumnChooser); each sizes to the text drawn
 * (columnWidths.ts) so no cell is cut, or to the width the user dragged it to (ColumnResizer); a
 * narrow table scrolls sideways.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import type { Filters } from '../../src-shared/filters';
import type { SortKey } from '../../src-shared/incidentQueries';
import { ColumnResizer } from './ColumnResizer';
import type { CellContext, Column, TableRow } from './columns';
import { gridColumns, grownById, rowMinWidth, widthsFor } from './columnWidths';
import type { PagedRows } from './usePagedRows';
import { ariaSort, type Sort } from './sortState';
import { Cell, SortButton } from './tableCells';
import styles from './table.module.css';

export const ROW_HEIGHT = 34;
const HEADER_HEIGHT = 36;
/** The row's gap and side padding (table.module.css .itRow), for its least width. */
const ROW_GAP_PX = 12;
const ROW_PADDING_PX = 10;

/** The column that takes the room left over (unless the user set its width). */
const FLEXIBLE_COLUMN = 'address';
/** Room kept right of a header's label for its resize handle (table.module.css .resizer). */
const RESIZER_ROOM_PX = 10;

/**
 * The width of each column's widest drawn text (header label and rows), measured as laid out. A
 * header is measured by its label alone (its resize handle sits at its right edge).
 */
function measureColumns(grid: HTMLElement, count: number): number[] {
  const widths = Array.from({ length: count }, () => 0);
  const range = document.createRange();
  for (const row of grid.querySelectorAll('[role="row"]')) {
    row.querySelectorAll(':scope > [role="gridcell"], :scope > [role="columnheader"]').forEach((cell, i) => {
      const target = cell.getAttribute('role') === 'columnheader' ? cell.firstElementChild : cell;
      if (i >= widths.length || !target || target.childNodes.length === 0) return;
      range.selectNodeContents(target);
      const room = target === cell ? 0 : RESIZER_ROOM_PX;
      widths[i] = Math.max(widths[i] ?? 0, range.getBoundingClientRect().width + room);
    });
  }
  range.detach();
  return widths;
}

export type IncidentTableProps = {
  data: PagedRows;
  filters: Filters;
  sort: Sort;
  onSort: (by: SortKey) => void;
  active: number;
  onActive: (index: number) => void;
  /** Opens the incident of a row (click, or Enter on the active row). */
  onOpen: (row: TableRow, index: number) => void;
  openCdid: number | null;
  /** The columns shown, in order, what their cells read, and the widths the user set. */
  columns: readonly Column[];
  cellContext: CellContext;
  userWidths: Readonly<Record<string, number>>;
  onResize: (id: string, width: number) => void;
};

function moveBy(key: string, active: number, total: number, page: number): number | null {
  const last = total - 1;
  switch (key) {
    case 'ArrowDown':
      return Math.min(last, active + 1);
    case 'ArrowUp':
      return Math.max(0, active - 1);
    case 'PageDown':
      return Math.min(last, active + page);
    case 'PageUp':
      return Math.max(0, active - page);
    case 'Home':
      return 0;
    case 'End':
      return last;
    default:
      return null;
  }
}

export function IncidentTable(props: IncidentTableProps) {
  const { data, filters, sort, onSort, active, onActive, onOpen, openCdid } = props;
  const { columns, cellContext, userWidths, onResize } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const total = data.total ?? 0;
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    scrollMargin: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  const { want } = data;
  // Columns as wide as their widest drawn text (they only grow, so scrolling never shifts them),
  // unless the user set a width.
  const ids = columns.map((c) => c.id);
  const [measured, setMeasured] = useState<Record<string, number>>({});
  useLayoutEffect(() => {
    const grid = scroller.current;
    if (!grid) return;
    const next = grownById(measured, ids, measureColumns(grid, ids.length));
    if (ids.some((id) => next[id] !== measured[id])) setMeasured(next);
  });
  const widths = widthsFor(ids, measured, userWidths);
  const flexible = userWidths[FLEXIBLE_COLUMN] === undefined ? ids.indexOf(FLEXIBLE_COLUMN) : -1;
  const columnStyle = {
    '--it-columns': gridColumns(widths, flexible),
    '--it-min-width': `${rowMinWidth(widths, ROW_GAP_PX, ROW_PADDING_PX)}px`,
  } as CSSProperties;

  useEffect(() => {
    if (total > 0) want(first, last);
  }, [first, last, total, want, data.queryKey]);

  // A new query starts at the top.
  useEffect(() => {
    scroller.current?.scrollTo({ top: 0 });
  }, [data.queryKey]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (total === 0) return;
    if (event.key === 'Enter') {
      const row = data.rowAt(active);
      if (row) onOpen(row, active);
      event.preventDefault();
      return;
    }
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 400) / ROW_HEIGHT) - 1);
    const next = moveBy(event.key, active, total, page);
    if (next === null) return;
    event.preventDefault();
    onActive(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };

  const rowId = (index: number) => `incident-row-${index}`;
  return (
    <div
      ref={scroller}
      className={styles.incidentTable}
      role="grid"
      aria-label="Incidents"
      aria-rowcount={total + 1}
      aria-colcount={columns.length}
      tabIndex={0}
      aria-activedescendant={total > 0 ? rowId(active) : undefined}
      onKeyDown={onKeyDown}
      data-testid="incident-table"
      data-total={total}
      style={columnStyle}
    >
      <div role="rowgroup" className={styles.itHead}>
        <div role="row" aria-rowindex={1} className={`${styles.itRow} ${styles.itHeader}`}>
          {columns.map((col, i) => (
            <div
              key={col.id}
              role="columnheader"
              className={styles.itHeadCell}
              data-column={col.id}
              aria-sort={col.sortKey ? ariaSort(sort, col.sortKey) : undefined}
            >
              {col.sortKey ? (
                <SortButton col={col} sortKey={col.sortKey} sort={sort} filters={filters} onSort={onSort} />
              ) : (
                <span>{col.label}</span>
              )}
              <ColumnResizer label={col.label} width={widths[i] ?? 0} onResize={(w) => onResize(col.id, w)} />
            </div>
          ))}
        </div>
      </div>
      <div role="rowgroup" className={styles.itBody} style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const row = data.rowAt(item.index);
          return (
            <div
              key={item.key}
              id={rowId(item.index)}
              role="row"
              aria-rowindex={item.index + 2}
              aria-selected={item.index === active}
              data-open={row && row.cdid === openCdid ? 'true' : undefined}
              data-removed={row?.removed ? 'true' : undefined}
              className={styles.itRow}
              style={{ transform: `translateY(${item.start - HEADER_HEIGHT}px)` }}
              onClick={() => {
                onActive(item.index);
                if (row) onOpen(row, item.index);
              }}
            >
              {row ? columns.map((col) => <Cell key={col.id} col={col} row={row} ctx={cellContext} />) : null}
              {row ? null : (
                <div role="gridcell" className={`${styles.cLoading} muted`}>
                  Loading…
                </div>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}

/**
 * The incident table: a virtualized grid over the filtered incidents (only the rows in view exist
 * in the DOM), sortable by date, type, distance and address (aria-sort on each header), keyboard
 * driven (arrows, Page Up/Down, Home/End move; Enter opens the incident) and clickable. Columns
 * size to the text drawn (columnWidths.ts): no cell is cut; a narrow table scrolls sideways.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import type { Filters } from '../../src-shared/filters';
import type { SortKey } from '../../src-shared/incidentQueries';
import { typeColor } from '../filters/typeColors';
import { localTimeText } from '../incident/timeText';
import type { PagedRows } from './usePagedRows';
import { gridColumns, grownWidths, rowMinWidth } from './columnWidths';
import { ariaSort, canSortBy, type Sort } from './sortState';
import styles from './table.module.css';

export const ROW_HEIGHT = 34;
const HEADER_HEIGHT = 36;
/** The row's gap and side padding (table.module.css .itRow), for its least width. */
const ROW_GAP_PX = 12;
const ROW_PADDING_PX = 10;
/** Before the first measure: room for the header labels. */
const START_WIDTHS = [150, 80, 90, 200, 72, 56];

const COLUMNS: { key: SortKey | null; label: string; className: string | undefined }[] = [
  { key: 'date', label: 'Local date and time', className: styles.cDate },
  { key: 'type', label: 'Type', className: styles.cType },
  // An imported file's own category (SF's "Larceny Theft" under Theft); empty for the API's.
  { key: null, label: 'Subtype', className: 'c-subtype' },
  { key: 'address', label: 'Address', className: 'c-address' }, // the flexible column (ADDRESS_COLUMN)
  { key: 'distance', label: 'Distance', className: styles.cDistance },
  { key: null, label: 'Flags', className: 'c-flags' },
];

const ADDRESS_COLUMN = 3;

/** The width of each column's widest drawn text (header and rows), measured as laid out. */
function measureColumns(grid: HTMLElement): number[] {
  const widths = COLUMNS.map(() => 0);
  const range = document.createRange();
  for (const row of grid.querySelectorAll('[role="row"]')) {
    row.querySelectorAll(':scope > [role="gridcell"], :scope > [role="columnheader"]').forEach((cell, i) => {
      if (i >= widths.length || cell.childNodes.length === 0) return;
      range.selectNodeContents(cell);
      widths[i] = Math.max(widths[i] ?? 0, range.getBoundingClientRect().width);
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
  onOpen: (cdid: number, index: number) => void;
  openCdid: number | null;
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
  // Columns as wide as their widest drawn text (they only grow, so scrolling never shifts them).
  const [widths, setWidths] = useState<number[]>(START_WIDTHS);
  useLayoutEffect(() => {
    const grid = scroller.current;
    if (!grid) return;
    const next = grownWidths(widths, measureColumns(grid));
    if (next.some((w, i) => w !== widths[i])) setWidths(next);
  });
  const columnStyle = {
    '--it-columns': gridColumns(widths, ADDRESS_COLUMN),
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
      if (row) onOpen(row.cdid, active);
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
      aria-colcount={COLUMNS.length}
      tabIndex={0}
      aria-activedescendant={total > 0 ? rowId(active) : undefined}
      onKeyDown={onKeyDown}
      data-testid="incident-table"
      data-total={total}
      style={columnStyle}
    >
      <div role="rowgroup" className={styles.itHead}>
        <div role="row" aria-rowindex={1} className={`${styles.itRow} ${styles.itHeader}`}>
          {COLUMNS.map((col) => (
            <div
              key={col.label}
              role="columnheader"
              className={col.className}
              aria-sort={col.key ? ariaSort(sort, col.key) : undefined}
            >
              {col.key ? (
                <button
                  type="button"
                  className={styles.sortButton}
                  disabled={!canSortBy(col.key, filters)}
                  title={
                    canSortBy(col.key, filters)
                      ? `Sort by ${col.label.toLowerCase()}`
                      : 'Choose an area in the filters to measure distances from its centre'
                  }
                  onClick={() => col.key && onSort(col.key)}
                >
                  {col.label}
                  <span className="sort-mark" aria-hidden="true">
                    {sort.by === col.key ? (sort.dir === 'asc' ? '▲' : '▼') : ''}
                  </span>
                </button>
              ) : (
                col.label
              )}
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
                if (row) onOpen(row.cdid, item.index);
              }}
            >
              {row ? (
                <>
                  <div role="gridcell" className={styles.cDate}>
                    {localTimeText(row.occurredLocal, row.timezone, row.occurredUtc)}
                  </div>
                  <div role="gridcell" className={styles.cType}>
                    <span className="swatch" style={{ background: typeColor(row.type) }} aria-hidden="true" />
                    {row.type}
                  </div>
                  <div role="gridcell" className="c-subtype">
                    {row.subtype ?? ''}
                  </div>
                  <div role="gridcell" className="c-address" title={row.address}>
                    {row.address}
                  </div>
                  <div role="gridcell" className={styles.cDistance}>
                    {row.distanceMi === null ? '—' : `${row.distanceMi.toFixed(2)} mi`}
                  </div>
                  <div role="gridcell" className="c-flags">
                    {row.removed ? <span className="flag flag-removed">Removed</span> : null}
                  </div>
                </>
              ) : (
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

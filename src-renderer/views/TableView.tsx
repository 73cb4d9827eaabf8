/**
 * Table: the filtered incidents, one row each (virtualized, sortable, keyboard driven), and the
 * incident panel beside it. The panel follows the selected row while it is open; the selected
 * incident is the Map's too (src-renderer/selection).
 */
import { useEffect, useMemo, useState } from 'react';
import { useFilters } from '../filters/FiltersContext';
import { IncidentPanel } from '../incident/IncidentPanel';
import { EmptyState } from '../shell/EmptyState';
import { ViewFrame } from '../shell/ViewFrame';
import { ColumnChooser } from '../table/ColumnChooser';
import { allColumns, attributeNamesOf, shownColumns } from '../table/columns';
import { resizedWidths } from '../table/columnWidths';
import { IncidentTable } from '../table/IncidentTable';
import { effectiveSort, nextSort, DEFAULT_SORT, type Sort } from '../table/sortState';
import { tableCaption } from '../table/sortText';
import { useArchiveTotal } from '../table/useArchiveTotal';
import { usePagedRows } from '../table/usePagedRows';
import { useTablePrefs, type TablePrefs } from '../table/useTablePrefs';
import { useSelection } from '../selection/SelectionContext';
import { useWorkspace } from '../workspace/WorkspaceContext';
import type { DataViewProps } from './viewProps';
import styles from '../table/table.module.css';

export function TableView({
  setup,
  savedColumns,
}: DataViewProps & { savedColumns?: TablePrefs | undefined }) {
  const { filters, reset, dataVersion } = useFilters();
  const { areas, client } = useWorkspace();
  const { prefs, setColumns, setWidths } = useTablePrefs(client, savedColumns);
  const [chosenSort, setSort] = useState<Sort>(DEFAULT_SORT);
  const sort = effectiveSort(chosenSort, filters);
  const data = usePagedRows(filters, sort, dataVersion);
  const archiveTotal = useArchiveTotal(dataVersion);
  const [active, setActive] = useState(0);
  // The selected incident (shared with the Map): its row highlighted, its panel open.
  const { selected, select } = useSelection();
  const open = selected?.cdid ?? null;

  useEffect(() => setActive(0), [data.queryKey]);

  // The columns offered (the kept fields of the rows loaded so far among them) and those shown.
  const [keptNames, setKeptNames] = useState<string[]>([]);
  useEffect(() => {
    const seen = attributeNamesOf(
      Array.from({ length: Math.min(data.total ?? 0, 400) }, (_, i) => data.rowAt(i)),
    );
    setKeptNames((was) =>
      seen.size === 0 || [...seen].every((n) => was.includes(n)) ? was : [...new Set([...was, ...seen])],
    );
  }, [data, data.version]);
  const offered = useMemo(() => allColumns(keptNames, prefs.columns), [keptNames, prefs.columns]);
  const columns = useMemo(() => shownColumns(offered, prefs.columns), [offered, prefs.columns]);
  const cellContext = useMemo(() => ({ areas: areas ?? [] }), [areas]);

  const area = filters.area;
  const areaName = area && 'areaId' in area ? (areas?.find((a) => a.id === area.areaId)?.name ?? null) : null;

  const intro = 'Every incident in your local archive that matches the filters, one row each.';
  if (archiveTotal === 0 && (data.total ?? 0) === 0) {
    return (
      <ViewFrame title="Table" intro={intro}>
        <EmptyState
          setup={setup}
          title="No incidents to list"
          text="Once an area has synced, its incidents are listed here, one row each, to sort, filter and open. Add an area in Areas to begin."
          action={{ view: 'areas', label: 'Go to Areas' }}
        />
      </ViewFrame>
    );
  }

  const onActive = (index: number) => {
    setActive(index);
    const row = open === null ? undefined : data.rowAt(index);
    if (row) select({ cdid: row.cdid, lat: row.lat, lon: row.lon });
  };

  return (
    <ViewFrame title="Table" intro={intro} fill>
      <div className={styles.tableBar}>
        <p className={styles.tableStatus} role="status">
          {data.error
            ? `The table could not be loaded: ${data.error}`
            : data.total === null
              ? 'Loading…'
              : tableCaption(data.total, sort, data.center, areaName)}
        </p>
        <ColumnChooser all={offered} chosen={columns.map((c) => c.id)} onChange={setColumns} />
      </div>
      {data.total === 0 ? (
        <div className="empty-state" data-testid="no-match">
          <h2>No incidents match these filters</h2>
          <p>Widen the date range, choose more types or clear the filters.</p>
          <button type="button" className="button primary" onClick={reset}>
            Clear all filters
          </button>
        </div>
      ) : (
        <div className={styles.tableLayout} data-panel={open === null ? 'closed' : 'open'}>
          <IncidentTable
            data={data}
            filters={filters}
            sort={sort}
            onSort={(by) => setSort(nextSort(sort, by))}
            active={active}
            onActive={onActive}
            onOpen={(row) => select({ cdid: row.cdid, lat: row.lat, lon: row.lon })}
            openCdid={open}
            columns={columns}
            cellContext={cellContext}
            userWidths={prefs.widths}
            onResize={(id, width) => setWidths(resizedWidths(prefs.widths, id, width))}
          />
          {open !== null ? (
            <IncidentPanel cdid={open} onClose={() => select(null)} className={styles.panel} />
          ) : null}
        </div>
      )}
    </ViewFrame>
  );
}

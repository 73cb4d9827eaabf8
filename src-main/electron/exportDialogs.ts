/**
 * The Electron shell's part in exports and imports (engine/export/hostHooks.ts): the native save
 * dialog decides where an export goes, the open dialog which file is imported (or which CA
 * certificate an office join trusts), and the report
 * printer (reportPrinter.ts) prints PDF reports. Whatever path the page sent is ignored.
 */
import type { BrowserWindow, OpenDialogOptions, SaveDialogOptions } from 'electron';
import type { ExportFormat } from '../../src-shared/exports';
import type { ChosenFilePurpose, ExportHostHooks, PrintJob } from '../engine/index';

/** The part of Electron's dialog module used here; tests pass a fake. */
export interface DialogLike {
  showSaveDialog(
    window: BrowserWindow,
    options: SaveDialogOptions,
  ): Promise<{ canceled: boolean; filePath?: string }>;
  showOpenDialog(
    window: BrowserWindow,
    options: OpenDialogOptions,
  ): Promise<{ canceled: boolean; filePaths: string[] }>;
}

/** The open dialog for each reason a file is chosen: its title and the files it offers first. */
const OPEN_DIALOGS: Record<ChosenFilePurpose, OpenDialogOptions> = {
  import: {
    title: 'Import incidents',
    properties: ['openFile'],
    filters: [
      { name: 'Incident files', extensions: ['csv', 'tsv', 'txt', 'geojson', 'json', 'ndjson', 'jsonl'] },
      { name: 'All files', extensions: ['*'] },
    ],
  },
  boundaries: {
    title: 'Import boundaries',
    properties: ['openFile'],
    filters: [
      {
        name: 'Boundary files (GeoJSON, zipped Shapefile, KML, KMZ)',
        extensions: ['geojson', 'json', 'zip', 'kml', 'kmz'],
      },
      { name: 'All files', extensions: ['*'] },
    ],
  },
  'place-reference': {
    title: 'Add a reference for placing addresses',
    properties: ['openFile'],
    filters: [
      {
        name: 'Street centre lines (TIGER/Line EDGES or ADDRFEAT: zipped Shapefile, .shp) or address points (CSV, GeoJSON)',
        extensions: ['zip', 'shp', 'csv', 'geojson', 'json'],
      },
      { name: 'All files', extensions: ['*'] },
    ],
  },
  'office-ca': {
    title: 'The office database’s CA certificate',
    properties: ['openFile'],
    filters: [
      { name: 'CA certificate (PEM)', extensions: ['pem', 'crt', 'cer'] },
      { name: 'All files', extensions: ['*'] },
    ],
  },
};

const FILTERS: Record<ExportFormat, { name: string; extensions: string[] }> = {
  csv: { name: 'CSV (comma-separated values)', extensions: ['csv'] },
  geojson: { name: 'GeoJSON', extensions: ['geojson', 'json'] },
  gpkg: { name: 'GeoPackage', extensions: ['gpkg'] },
  shp: { name: 'Shapefile (zip)', extensions: ['zip'] },
  kml: { name: 'KML', extensions: ['kml'] },
  pdf: { name: 'PDF report', extensions: ['pdf'] },
};

export type ElectronExportDeps = {
  dialog: DialogLike;
  /** The window the dialogs belong to (they are modal to it). */
  window: () => BrowserWindow | null;
  defaultFolder: () => string;
  printReport: (job: PrintJob) => Promise<void>;
  join: (folder: string, name: string) => string;
};

export function electronExportHooks(deps: ElectronExportDeps): ExportHostHooks {
  const parent = (): BrowserWindow => {
    const win = deps.window();
    if (!win) throw new Error('The Blotter window is closed.');
    return win;
  };
  return {
    async chooseDestination({ format, suggestedName }) {
      const answer = await deps.dialog.showSaveDialog(parent(), {
        title: format === 'pdf' ? 'Save the report' : 'Export incidents',
        defaultPath: deps.join(deps.defaultFolder(), suggestedName),
        filters: [FILTERS[format]],
        properties: ['createDirectory', 'showOverwriteConfirmation'],
      });
      return answer.canceled || !answer.filePath ? null : answer.filePath;
    },
    async chooseImport(_sent, purpose = 'import') {
      const answer = await deps.dialog.showOpenDialog(parent(), OPEN_DIALOGS[purpose]);
      const file = answer.filePaths[0];
      return answer.canceled || !file ? null : { path: file };
    },
    printReport: deps.printReport,
  };
}

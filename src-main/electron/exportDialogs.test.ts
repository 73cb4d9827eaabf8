import type { BrowserWindow } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { electronExportHooks, type DialogLike } from './exportDialogs';

const win = {} as BrowserWindow;
const deps = (dialog: Partial<DialogLike>, window: BrowserWindow | null = win) =>
  electronExportHooks({
    dialog: dialog as DialogLike,
    window: () => window,
    defaultFolder: () => '/home/ana/Documents',
    printReport: async () => undefined,
    join: (a, b) => `${a}/${b}`,
  });

describe('Electron export dialogs', () => {
  it('asks the save dialog, modal to the window, with the suggested name and the format’s filter', async () => {
    const showSaveDialog = vi.fn(async () => ({ canceled: false, filePath: '/home/ana/x.csv' }));
    expect(
      await deps({ showSaveDialog }).chooseDestination({ format: 'csv', suggestedName: 'blotter.csv' }),
    ).toBe('/home/ana/x.csv');
    expect(showSaveDialog).toHaveBeenCalledWith(
      win,
      expect.objectContaining({
        defaultPath: '/home/ana/Documents/blotter.csv',
        filters: [expect.objectContaining({ extensions: ['csv'] })],
      }),
    );
  });

  it('answers null when the user cancels either dialog', async () => {
    const hooks = deps({
      showSaveDialog: async () => ({ canceled: true }),
      showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
    });
    expect(await hooks.chooseDestination({ format: 'pdf', suggestedName: 'r.pdf' })).toBeNull();
    expect(await hooks.chooseImport(undefined)).toBeNull();
  });

  it('imports the file the open dialog chose, whatever the page sent', async () => {
    const hooks = deps({
      showOpenDialog: async () => ({ canceled: false, filePaths: ['/data/archive.ndjson'] }),
    });
    expect(await hooks.chooseImport({ path: '/etc/shadow' })).toEqual({ path: '/data/archive.ndjson' });
  });

  it('asks for the office CA certificate in its own words, whatever the page sent', async () => {
    const showOpenDialog = vi.fn(async () => ({ canceled: false, filePaths: ['/home/ana/office-ca.pem'] }));
    expect(await deps({ showOpenDialog }).chooseImport({ path: '/etc/shadow' }, 'office-ca')).toEqual({
      path: '/home/ana/office-ca.pem',
    });
    expect(showOpenDialog).toHaveBeenCalledWith(
      win,
      expect.objectContaining({
        title: expect.stringMatching(/CA certificate/),
        filters: expect.arrayContaining([expect.objectContaining({ extensions: ['pem', 'crt', 'cer'] })]),
      }),
    );
  });

  it('asks for a boundary file in its own words, offering GeoJSON, zipped Shapefiles, KML and KMZ', async () => {
    const showOpenDialog = vi.fn(async () => ({ canceled: false, filePaths: ['/home/ana/beats.kmz'] }));
    expect(await deps({ showOpenDialog }).chooseImport(undefined, 'boundaries')).toEqual({
      path: '/home/ana/beats.kmz',
    });
    expect(showOpenDialog).toHaveBeenCalledWith(
      win,
      expect.objectContaining({
        title: 'Import boundaries',
        filters: expect.arrayContaining([
          expect.objectContaining({ extensions: ['geojson', 'json', 'zip', 'kml', 'kmz'] }),
        ]),
      }),
    );
  });

  it('asks for a place reference in its own words, offering centre lines (zip, .shp) and address points (CSV, GeoJSON)', async () => {
    const showOpenDialog = vi.fn(async () => ({ canceled: false, filePaths: ['/home/ana/tl_edges.zip'] }));
    expect(await deps({ showOpenDialog }).chooseImport(undefined, 'place-reference')).toEqual({
      path: '/home/ana/tl_edges.zip',
    });
    expect(showOpenDialog).toHaveBeenCalledWith(
      win,
      expect.objectContaining({
        title: 'Add a reference for placing addresses',
        filters: expect.arrayContaining([
          expect.objectContaining({ extensions: ['zip', 'shp', 'csv', 'geojson', 'json'] }),
        ]),
      }),
    );
  });

  it('refuses when the window is gone', async () => {
    await expect(deps({}, null).chooseDestination({ format: 'csv', suggestedName: 'x.csv' })).rejects.toThrow(
      /closed/,
    );
  });
});

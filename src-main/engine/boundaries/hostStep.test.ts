/** The host chooses a boundary file, as it does an import's: the page never names a path. */
import { describe, expect, it } from 'vitest';
import { withExportHooks, type ExportHostHooks } from '../export/hostHooks';
import { fakeEngine, hostHooks } from '../testing/fakeHost';

const hooks = (chooseImport: ExportHostHooks['chooseImport']) => hostHooks({ chooseImport });

describe('previewBoundaries through the host', () => {
  it('takes the file the host chose (Electron: its dialog, asked for a boundary file), whatever the page sent', async () => {
    const { engine, calls } = fakeEngine();
    const asked: unknown[] = [];
    const wrapped = withExportHooks(
      engine,
      hooks(async (_sent, purpose) => {
        asked.push(purpose);
        return { path: '/home/ana/beats.zip' };
      }),
    );
    await wrapped.call('previewBoundaries', { source: { path: '/etc/passwd' } });
    expect(calls).toEqual([
      { name: 'previewBoundaries', input: { source: { path: '/home/ana/beats.zip' } } },
    ]);
    expect(asked).toEqual(['boundaries']);
  });

  it('refuses a path from the page where the host takes uploads only, and a cancelled dialog', async () => {
    const { engine, calls } = fakeEngine();
    const web = withExportHooks(
      engine,
      hooks(async (sent) => {
        if (sent && 'uploadId' in sent) return sent;
        throw new Error('Upload the file from this page first: the web host imports only uploaded files.');
      }),
    );
    expect(await web.call('previewBoundaries', { source: { path: '/etc/passwd' } })).toMatchObject({
      ok: false,
      error: { code: 'bad_input', message: expect.stringMatching(/Upload the file/) },
    });
    await web.call('previewBoundaries', { source: { uploadId: 'abc', name: 'beats.kml' } });
    expect(calls).toEqual([
      { name: 'previewBoundaries', input: { source: { uploadId: 'abc', name: 'beats.kml' } } },
    ]);
    const cancelled = withExportHooks(
      engine,
      hooks(async () => null),
    );
    expect(await cancelled.call('previewBoundaries', {})).toMatchObject({
      ok: false,
      error: { code: 'cancelled' },
    });
    expect(calls).toHaveLength(1);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { fakeEngine, hostHooks } from '../testing/fakeHost';
import { withExportHooks } from './hostHooks';

describe('export host hooks', () => {
  it('replaces any destination the page sent with the host’s choice', async () => {
    const { engine, calls } = fakeEngine({ startExport: { jobId: 'j', fileName: 'x.csv', total: 1 } });
    const wrapped = withExportHooks(
      engine,
      hostHooks({ chooseDestination: async () => '/home/ana/out.csv' }),
    );
    await wrapped.call('startExport', { format: 'csv', filters: {}, destination: { path: '/etc/passwd' } });
    expect(calls[0]).toEqual({
      name: 'startExport',
      input: { format: 'csv', filters: {}, destination: { path: '/home/ana/out.csv' } },
    });

    const web = withExportHooks(engine, hostHooks());
    await web.call('startExport', { format: 'csv', filters: {}, destination: { path: '/etc/passwd' } });
    expect(calls[1]?.input).toEqual({ format: 'csv', filters: {} });
  });

  it('answers cancelled when the user closes the dialog, and starts nothing', async () => {
    const { engine, calls } = fakeEngine({});
    const wrapped = withExportHooks(
      engine,
      hostHooks({ chooseDestination: async () => null, chooseImport: async () => null }),
    );
    expect(await wrapped.call('startExport', { format: 'csv', filters: {} })).toMatchObject({
      ok: false,
      error: { code: 'cancelled' },
    });
    expect(await wrapped.call('previewImport', {})).toMatchObject({
      ok: false,
      error: { code: 'cancelled' },
    });
    expect(calls).toEqual([]);
  });

  it('prints a PDF job, keeps the token from the page and reports the outcome to the engine', async () => {
    const { engine, calls } = fakeEngine({
      startExport: {
        jobId: 'p1',
        fileName: 'r.pdf',
        total: 3,
        print: { token: 'T', file: '/x/r.pdf.p1.part' },
      },
      finishReport: { accepted: true },
    });
    const printed: unknown[] = [];
    const wrapped = withExportHooks(
      engine,
      hostHooks({ printReport: async (job) => void printed.push(job) }),
    );
    const answer = await wrapped.call('startExport', { format: 'pdf', filters: {} });
    expect(answer).toEqual({ ok: true, value: { jobId: 'p1', fileName: 'r.pdf', total: 3 } });
    await vi.waitFor(() => expect(calls.map((c) => c.name)).toContain('finishReport'));
    expect(printed).toEqual([{ jobId: 'p1', file: '/x/r.pdf.p1.part' }]);
    expect(calls.at(-1)?.input).toEqual({ jobId: 'p1', token: 'T' });

    const failing = withExportHooks(
      engine,
      hostHooks({ printReport: async () => Promise.reject(new Error('no Chromium')) }),
    );
    await failing.call('startExport', { format: 'pdf', filters: {} });
    await vi.waitFor(() =>
      expect(calls.at(-1)?.input).toEqual({ jobId: 'p1', token: 'T', failed: 'no Chromium' }),
    );
  });

  it('asks the host for a place reference in its own words, and hands the engine the host’s choice', async () => {
    const retry = { tried: 0, placed: 0, byMethod: {}, unplaced: 0 };
    const { engine, calls } = fakeEngine({
      addPlaceReference: { kind: 'address points', items: 1, skipped: 0, retry },
    });
    const purposes: unknown[] = [];
    const wrapped = withExportHooks(
      engine,
      hostHooks({
        chooseImport: async (_sent, purpose) => {
          purposes.push(purpose);
          return { path: '/home/ana/points.csv' };
        },
      }),
    );
    await wrapped.call('addPlaceReference', { source: { path: '/etc/passwd' } });
    expect(purposes).toEqual(['place-reference']);
    expect(calls).toEqual([
      { name: 'addPlaceReference', input: { source: { path: '/home/ana/points.csv' } } },
    ]);
  });

  it('lets the host refuse an import source', async () => {
    const { engine } = fakeEngine({});
    const wrapped = withExportHooks(
      engine,
      hostHooks({ chooseImport: async () => Promise.reject(new Error('Upload the file first.')) }),
    );
    expect(await wrapped.call('previewImport', { source: { path: '/etc/passwd' } })).toEqual({
      ok: false,
      error: { code: 'bad_input', message: 'Upload the file first.' },
    });
  });
});

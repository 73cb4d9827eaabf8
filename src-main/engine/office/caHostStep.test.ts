/**
 * An office join from a page: the host chooses the CA certificate file (Electron's open dialog,
 * the web host an upload), and an address naming a file itself (sslrootcert) is refused before the
 * engine sees it — a page cannot make the engine read a path it names. The CLI, which calls the
 * engine directly, may still write sslrootcert=FILE (engine test: caCertificate.test.ts).
 */
import { describe, expect, it, vi } from 'vitest';
import { withExportHooks, type ExportHostHooks } from '../export/hostHooks';
import { fakeEngine, hostHooks } from '../testing/fakeHost';

const hooks = (chooseImport: ExportHostHooks['chooseImport']) => hostHooks({ chooseImport });

/** The web host's choice: uploads only (src-main/web/server.ts). */
const webHost = hooks(async (sent) => {
  if (sent && 'uploadId' in sent) return sent;
  throw new Error('Upload the file from this page first: the web host imports only uploaded files.');
});

const join = { url: 'postgres://blotter@db.office.lan/office', password: null };

describe('joinOffice through the host', () => {
  it('refuses an address that names a file, however the parameter is written, without calling the engine', async () => {
    const { engine, calls } = fakeEngine();
    const chosen = vi.fn(async () => ({ path: '/home/ana/ca.pem' }));
    for (const wrapped of [withExportHooks(engine, webHost), withExportHooks(engine, hooks(chosen))])
      for (const url of [
        `${join.url}?sslrootcert=/etc/shadow`,
        `${join.url}?sslmode=verify-full&sslroot%63ert=%2Fdev%2Fzero`,
        ` ${join.url}?sslrootcert=/proc/self/environ `,
      ])
        expect(await wrapped.call('joinOffice', { ...join, url })).toMatchObject({
          ok: false,
          error: { code: 'bad_input', message: expect.stringMatching(/cannot name a file on this computer/) },
        });
    expect(calls).toEqual([]);
    expect(chosen).not.toHaveBeenCalled();
  });

  it('takes the CA file the host chose (Electron: its dialog), whatever the page sent', async () => {
    const { engine, calls } = fakeEngine();
    const chooseImport = vi.fn(async () => ({ path: '/home/ana/office-ca.pem' }));
    const electron = withExportHooks(engine, hooks(chooseImport));
    await electron.call('joinOffice', { ...join, caFile: { choose: true } });
    await electron.call('joinOffice', { ...join, caFile: { path: '/etc/shadow' } });
    expect(chooseImport).toHaveBeenNthCalledWith(1, undefined, 'office-ca');
    expect(calls.map((c) => c.input)).toEqual([
      { ...join, caFile: { path: '/home/ana/office-ca.pem' } },
      { ...join, caFile: { path: '/home/ana/office-ca.pem' } },
    ]);
  });

  it('in the web host takes an upload and refuses a path; a join without a CA file goes on as sent', async () => {
    const { engine, calls } = fakeEngine();
    const web = withExportHooks(engine, webHost);
    expect(await web.call('joinOffice', { ...join, caFile: { path: '/etc/shadow' } })).toMatchObject({
      ok: false,
      error: { code: 'bad_input', message: expect.stringMatching(/Upload the file/) },
    });
    expect(await web.call('joinOffice', { ...join, caFile: { choose: true } })).toMatchObject({
      ok: false,
      error: { code: 'bad_input' },
    });
    await web.call('joinOffice', { ...join, caFile: { uploadId: 'u1234567890abcdef', name: 'ca.pem' } });
    await web.call('joinOffice', join);
    expect(calls.map((c) => c.input)).toEqual([
      { ...join, caFile: { uploadId: 'u1234567890abcdef', name: 'ca.pem' } },
      join,
    ]);
  });

  it('answers cancelled when the user closes the dialog, and joins nothing', async () => {
    const { engine, calls } = fakeEngine();
    const wrapped = withExportHooks(
      engine,
      hooks(async () => null),
    );
    expect(await wrapped.call('joinOffice', { ...join, caFile: { choose: true } })).toMatchObject({
      ok: false,
      error: { code: 'cancelled' },
    });
    expect(calls).toEqual([]);
  });
});

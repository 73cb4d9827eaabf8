import { describe, expect, it } from 'vitest';
import type { FrameLike } from './senderCheck';
import { createReportPrinter, type ReportWindowLike } from './reportPrinter';

type Script = (Record<string, unknown> | null)[];

function fakeWindowClass(script: Script, log: string[]) {
  let nextId = 1;
  return class FakeWindow implements ReportWindowLike {
    static last: FakeWindow | null = null;
    destroyed = false;
    readonly options: unknown;
    readonly webContents: ReportWindowLike['webContents'];
    constructor(options: unknown) {
      this.options = options;
      const frame: FrameLike = {
        url: 'file:///app/index.html#/report?job=j1',
        parent: null,
        processId: 7,
        routingId: 1,
      };
      const states = [...script];
      this.webContents = {
        id: nextId++,
        mainFrame: frame,
        executeJavaScript: async () => (states.length > 1 ? states.shift() : states[0]) ?? null,
        printToPDF: async (o) => {
          log.push(`print ${JSON.stringify(o)}`);
          return new TextEncoder().encode('%PDF-1.7');
        },
      };
      FakeWindow.last = this;
    }
    async loadURL(url: string) {
      log.push(`load ${url}`);
    }
    isDestroyed() {
      return this.destroyed;
    }
    destroy() {
      this.destroyed = true;
      log.push('destroy');
    }
  };
}

const printerWith = (script: Script, log: string[], written: Map<string, Uint8Array>) => {
  const Win = fakeWindowClass(script, log);
  const printer = createReportPrinter({
    BrowserWindow: Win,
    preloadPath: '/app/preload.cjs',
    appUrl: 'file:///app/index.html#/map',
    isAppUrl: (url) => url.startsWith('file:///app/index.html'),
    writeFile: async (file, data) => void written.set(file, data),
    pause: async () => undefined,
  });
  return { printer, Win };
};

describe('report printer', () => {
  it('loads the report page hidden, waits until it is drawn, prints it to the file and closes', async () => {
    const log: string[] = [];
    const written = new Map<string, Uint8Array>();
    const { printer, Win } = printerWith(
      [null, { loaded: false, app: true }, { ready: true, job: 'j1' }],
      log,
      written,
    );
    await printer.print({ jobId: 'j1', file: '/out/r.pdf.part' });
    expect(log[0]).toBe('load file:///app/index.html#/report?job=j1');
    expect(log[1]).toMatch(/^print .*"pageSize":"Letter"/);
    expect(log[2]).toBe('destroy');
    expect(new TextDecoder().decode(written.get('/out/r.pdf.part'))).toBe('%PDF-1.7');
    expect(Win.last?.options).toMatchObject({
      show: false,
      webPreferences: {
        preload: '/app/preload.cjs',
        sandbox: true,
        contextIsolation: true,
        nodeIntegration: false,
      },
    });
  });

  it('trusts calls from a report window only while it prints', async () => {
    const log: string[] = [];
    let seen: boolean | null = null;
    const written = new Map<string, Uint8Array>();
    const { printer, Win } = printerWith([{ ready: true, job: 'j1' }], log, written);
    const event = () => {
      const w = Win.last as InstanceType<typeof Win>;
      return { sender: { id: w.webContents.id }, senderFrame: w.webContents.mainFrame };
    };
    const printing = printer.print({ jobId: 'j1', file: '/x' });
    seen = printer.isReportSender(event());
    await printing;
    expect(seen).toBe(true);
    expect(printer.isReportSender(event())).toBe(false);
  });

  it('fails with the page’s own words, and still closes the window', async () => {
    const log: string[] = [];
    const { printer } = printerWith([{ error: 'That report is no longer being printed.' }], log, new Map());
    await expect(printer.print({ jobId: 'j1', file: '/x' })).rejects.toThrow('no longer being printed');
    expect(log.at(-1)).toBe('destroy');
  });

  it('prints nothing when the page is not this job’s report (an error page, another job)', async () => {
    for (const [state, reason] of [
      [{ loaded: true, app: false, title: '404 Not Found' }, /"404 Not Found"\) is not Blotter's report/],
      [{ loaded: true, app: true, ready: true, job: 'other' }, /another job/],
    ] as const) {
      const log: string[] = [];
      const written = new Map<string, Uint8Array>();
      const { printer } = printerWith([state], log, written);
      await expect(printer.print({ jobId: 'j1', file: '/x' })).rejects.toThrow(reason);
      expect(written.size).toBe(0);
      expect(log.some((line) => line.startsWith('print'))).toBe(false);
      expect(log.at(-1)).toBe('destroy');
    }
  });
});

/**
 * Opens Blotter on one target and returns its first page plus a way to close everything:
 * web → the web host + Debian's Chromium; electron → the built Electron app.
 */
import path from 'node:path';
import { _electron, chromium, type Page } from '@playwright/test';
import { waitForAppReady } from './appReady';
import { electronBinary } from './electronBinary';
import type { LogBuffer } from './logBuffer';
import { ROOT } from './paths';
import { startWebHost } from './webHost';

export type Target = 'web' | 'electron';

export type Running = { page: Page; close(): Promise<void> };

export type LaunchOptions = {
  hostLogs: LogBuffer;
  pageLogs: LogBuffer;
  /** Extra environment for the host process (e.g. to hide the keychain). */
  hostEnv: Record<string, string>;
};

function recordPage(page: Page, pageLogs: LogBuffer): Page {
  page.on('console', (message) => pageLogs.append(`[${message.type()}] ${message.text()}\n`));
  page.on('pageerror', (error) => pageLogs.append(`[pageerror] ${error.message}\n`));
  return page;
}

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function targetFromEnv(): Target {
  const target = process.env.BLOTTER_E2E_TARGET ?? 'web';
  if (target !== 'web' && target !== 'electron') {
    throw new Error(`BLOTTER_E2E_TARGET must be "web" or "electron", not "${target}".`);
  }
  return target;
}

async function launchWeb(dataDir: string, { hostLogs, pageLogs, hostEnv }: LaunchOptions): Promise<Running> {
  const host = await startWebHost(dataDir, hostLogs, hostEnv);
  const browser = await chromium
    .launch({ executablePath: process.env.BLOTTER_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS })
    .catch(async (error: unknown) => {
      await host.stop();
      throw error;
    });
  const close = async () => {
    await browser.close();
    await host.stop();
  };
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = recordPage(await context.newPage(), pageLogs);
    await page.goto(host.url);
    return { page, close };
  } catch (error) {
    await close();
    throw error;
  }
}

async function launchElectron(
  dataDir: string,
  { hostLogs, pageLogs, hostEnv }: LaunchOptions,
): Promise<Running> {
  const executablePath = electronBinary();
  const app = await _electron.launch({
    executablePath,
    // Chromium refuses to run as root with its sandbox on (CI containers run as root).
    args: [
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
      path.join(ROOT, 'out/main/index.js'),
      '--data-dir',
      dataDir,
    ],
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), ...hostEnv },
  });
  app.process().stdout?.on('data', (chunk: Buffer) => hostLogs.append(chunk));
  app.process().stderr?.on('data', (chunk: Buffer) => hostLogs.append(chunk));
  try {
    return { page: recordPage(await app.firstWindow(), pageLogs), close: () => app.close() };
  } catch (error) {
    await app.close();
    throw error;
  }
}

export async function launch(target: Target, dataDir: string, options: LaunchOptions): Promise<Running> {
  const running = await (target === 'web' ? launchWeb(dataDir, options) : launchElectron(dataDir, options));
  try {
    await waitForAppReady(running.page);
  } catch (error) {
    await running.close();
    throw error;
  }
  return running;
}

/**
 * The Playwright fixtures every journey uses: a fresh data folder per test, Blotter started on the
 * chosen target (BLOTTER_E2E_TARGET, default web) and ready, the host's and the page's output for
 * leak checks, and everything stopped and removed afterwards.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test as base, type Page } from '@playwright/test';
import { launch, targetFromEnv, type Target } from './support/launch';
import { LogBuffer } from './support/logBuffer';

export type BlotterFixtures = {
  target: Target;
  dataDir: string;
  /** The host process's stdout and stderr. */
  hostLogs: LogBuffer;
  /** The page's console messages and uncaught errors. */
  pageLogs: LogBuffer;
  /** Extra environment for the host; set with `test.use({ hostEnv })`. */
  hostEnv: Record<string, string>;
  page: Page;
};

export const test = base.extend<BlotterFixtures>({
  target: async ({}, use) => use(targetFromEnv()),
  dataDir: async ({}, use) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'blotter-e2e-'));
    await use(dir);
    await rm(dir, { recursive: true, force: true });
  },
  hostLogs: async ({}, use) => use(new LogBuffer()),
  pageLogs: async ({}, use) => use(new LogBuffer()),
  hostEnv: [{}, { option: true }],
  page: async ({ target, dataDir, hostLogs, pageLogs, hostEnv }, use, testInfo) => {
    const running = await launch(target, dataDir, { hostLogs, pageLogs, hostEnv });
    try {
      await use(running.page);
    } finally {
      await running.close();
      if (testInfo.status !== testInfo.expectedStatus) {
        await testInfo.attach('host-logs', { body: hostLogs.text, contentType: 'text/plain' });
        await testInfo.attach('page-logs', { body: pageLogs.text, contentType: 'text/plain' });
      }
    }
  },
});

export { expect } from '@playwright/test';

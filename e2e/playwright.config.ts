/**
 * The e2e runner. Targets: the web host in Debian's Chromium (default) or Electron
 * (BLOTTER_E2E_TARGET=electron). The fixtures in fixtures.ts start a host per test in a fresh data
 * folder, so there is no webServer block here. Paths are relative to this file.
 */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../test-results/e2e-output',
  reporter: [['list'], ['json', { outputFile: '../test-results/e2e.json' }]],
  workers: 2,
  fullyParallel: true,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: Boolean(process.env.CI),
  use: { actionTimeout: 15_000 },
});

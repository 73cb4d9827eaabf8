/** Waits on the renderer's readiness flag (never on sleeps); fails fast with its load error. */
import type { Page } from '@playwright/test';

const READY_TIMEOUT_MS = 30_000;

export async function waitForAppReady(page: Page): Promise<void> {
  await page
    .locator('body[data-app-ready="true"], body[data-app-error]')
    .waitFor({ state: 'attached', timeout: READY_TIMEOUT_MS });
  const error = await page.locator('body').getAttribute('data-app-error');
  if (error) throw new Error(`Blotter could not start: ${error}`);
}

export async function reloadApp(page: Page): Promise<void> {
  await page.reload();
  await waitForAppReady(page);
}

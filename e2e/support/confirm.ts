/**
 * A confirmation as every action that asks first shows it (src-renderer/shell/ConfirmDialog.tsx):
 * a modal dialog, focus on Cancel, Tab kept inside, Escape cancelling with focus back on the opener,
 * so Enter twice on the opener never confirms.
 */
import { expect, type Locator, type Page } from '@playwright/test';

/** Whether focus is on an element inside `dialog`. */
const focusInside = (dialog: Locator) => dialog.evaluate((d) => d.contains(document.activeElement));

/**
 * The confirmation `dialog` (open) holds focus on its Cancel button, keeps Tab and Shift+Tab inside,
 * and Escape closes it with focus back on `opener`.
 */
export async function expectModalConfirmation(page: Page, dialog: Locator, opener: Locator): Promise<void> {
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  // Modal: the page behind is inert while it is open.
  expect(await dialog.evaluate((d) => (d as HTMLDialogElement).open && d.matches(':modal'))).toBe(true);
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Tab');
    expect(await focusInside(dialog), `Tab ${i + 1} stays in the dialog`).toBe(true);
  }
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Shift+Tab');
    expect(await focusInside(dialog), `Shift+Tab ${i + 1} stays in the dialog`).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
}

/** Enter on the opener, then Enter again: the second press lands on Cancel and nothing happens. */
export async function enterTwice(page: Page, dialog: Locator, opener: Locator): Promise<void> {
  await opener.focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
}

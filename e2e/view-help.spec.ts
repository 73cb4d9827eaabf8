/**
 * Help on demand (issue 26): every view's intro gives up its space — still the view's accessible
 * description — and a "?" at the foot of the sidebar shows it: a disclosure (aria-expanded), by
 * mouse or keyboard, closed again by the button, by Escape (focus back on the button) or by a click
 * elsewhere. It sits clear of the navigation and of the view at 1280×720.
 */
import { expect, test as base } from './fixtures';
import { openView, VIEW_LABELS } from './support/app';
import { seedMapData } from './support/mapSeed';

const test = base.extend({
  dataDir: async ({ dataDir }, use) => {
    seedMapData(dataDir, 1000);
    await use(dataDir);
  },
});

test('each view’s intro is hidden until its "?" shows it', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  for (const view of VIEW_LABELS) {
    await openView(page, view);
    const frame = page.getByRole('region', { name: view, exact: true });
    const intro = frame.locator('.view-intro');
    const text = ((await intro.textContent()) ?? '').trim();
    expect(text.length, `${view}'s intro`).toBeGreaterThan(20);
    await expect(frame).toHaveAccessibleDescription(text);
    expect((await intro.boundingBox())?.height ?? 0, `${view}'s intro takes no room`).toBeLessThanOrEqual(1);

    const help = page.getByRole('button', { name: `About the ${view} view` });
    const popover = page.getByTestId('view-help');
    await expect(help).toHaveAttribute('aria-expanded', 'false');
    await expect(popover).toBeHidden();

    // Clear of the navigation (below its last link) and of the view (in the sidebar).
    const helpBox = await help.boundingBox();
    const lastLink = await page
      .getByRole('navigation', { name: 'Views' })
      .getByRole('link')
      .last()
      .boundingBox();
    const main = await page.locator('main').boundingBox();
    expect(helpBox && lastLink && helpBox.y >= lastLink.y + lastLink.height).toBe(true);
    expect(helpBox && main && helpBox.x + helpBox.width <= main.x).toBe(true);

    // Mouse: opens beside it with the intro, closes with the button.
    await help.click();
    await expect(help).toHaveAttribute('aria-expanded', 'true');
    await expect(popover).toBeVisible();
    await expect(popover).toContainText(view);
    await expect(popover).toContainText(text);
    await help.click();
    await expect(popover).toBeHidden();

    // Keyboard: Enter opens, Escape closes and focus stays on the button.
    await help.focus();
    await page.keyboard.press('Enter');
    await expect(popover).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(popover).toBeHidden();
    await expect(help).toBeFocused();
    await expect(help).toHaveAttribute('aria-expanded', 'false');

    // A click elsewhere closes it too.
    await help.click();
    await expect(popover).toBeVisible();
    await page.locator('main').click({ position: { x: 600, y: 5 } });
    await expect(popover).toBeHidden();
  }
});

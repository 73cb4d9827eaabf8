/**
 * Filters at any scale (issue 26, item 2) over an archive of 60 categories (support/categorySeed.ts):
 *
 * - at 1280×720 and 1440×900, folded or not, with types chosen or not, the filter bar takes at
 *   most two rows;
 * - the types are one compact picker: the API's standard types first, then the archive's other 51
 *   under "More types" ("Other" stays the API's own), each most frequent first, with counts and a
 *   search; a chosen type shows as a chip whose × removes it; Escape closes the picker and puts
 *   focus back on its button;
 * - weekdays run Monday first (item 7), each button named by its visible label.
 *
 * Screenshots: artifacts/filters-types-<w>x<h>.png.
 */
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, test as base } from './fixtures';
import { reloadApp } from './support/appReady';
import { CITY_CATEGORIES, seedSixtyCategories } from './support/categorySeed';
import { ARTIFACTS_DIR } from './support/paths';

const test = base.extend({
  dataDir: async ({ dataDir }, use) => {
    seedSixtyCategories(dataDir);
    await use(dataDir);
  },
});

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
] as const;

/** The bar's rows: the distinct lines its visible controls sit on (the picker's popover aside). */
const barRows = (bar: Locator) =>
  bar.evaluate((el) => {
    const tops = [...el.querySelectorAll('button, input, select, output, li, [data-testid="date-range"]')]
      .filter((c) => !c.closest('[role="dialog"]'))
      .map((c) => c.getBoundingClientRect())
      .filter((r) => r.width > 2 && r.height > 2)
      .map((r) => r.top + r.height / 2)
      .sort((a, b) => a - b);
    let lines = 0;
    let last = -Infinity;
    for (const middle of tops) {
      if (middle - last > 12) lines++;
      if (middle - last > 12) last = middle;
    }
    return { lines, height: Math.round(el.getBoundingClientRect().height) };
  });

/** The options' names and counts, in the order shown. */
const optionsOf = (group: Locator) =>
  group.locator('label').evaluateAll((labels) =>
    labels.map((l) => ({
      type: l.getAttribute('data-type') ?? '',
      count: Number((l.lastElementChild?.textContent ?? '').replace(/,/g, '')),
    })),
  );

async function total(page: Page): Promise<number> {
  const out = page.getByTestId('filtered-count');
  await expect(out).toHaveAttribute('data-loading', 'false');
  await expect(out).not.toContainText('…');
  return Number(((await out.locator('strong').textContent()) ?? '').replace(/,/g, ''));
}

for (const size of SIZES) {
  test(`${size.width}×${size.height}: 60 categories in a two-row bar, picked from a searchable list`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(size);
    await reloadApp(page);
    const bar = page.getByRole('region', { name: 'Filters' });
    const all = await total(page);
    expect(all).toBeGreaterThan(4000);
    const maxRows = async (state: string) => {
      const rows = await barRows(bar);
      expect(rows.lines, `${state}: ${JSON.stringify(rows)}`).toBeLessThanOrEqual(2);
      expect(rows.height, `${state}: ${JSON.stringify(rows)}`).toBeLessThanOrEqual(100);
    };

    // Both states of the bar, as it opens and the other one.
    const fold = bar.getByRole('button', { name: /(More|Fewer) filters/ });
    await maxRows(`as opened (${await fold.textContent()})`);
    await fold.click();
    await maxRows(`toggled (${await fold.textContent()})`);
    if ((await fold.getAttribute('aria-expanded')) === 'false') await fold.click();

    // Weekdays Monday first, each named as it reads.
    const weekdays = bar.getByRole('group', { name: 'Weekdays' }).getByRole('button');
    await expect(weekdays).toHaveText(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);
    for (const day of await weekdays.all())
      await expect(day).toHaveAccessibleName((await day.innerText()).trim());
    await expect(weekdays.first()).toHaveAttribute('title', 'Monday');

    // The picker: standard types first, then the archive's 51 others, each most frequent first.
    const picker = bar.getByRole('button', { name: /^Types:/ });
    await expect(picker).toHaveText(/Types: all/);
    await picker.click();
    const dialog = page.getByRole('dialog', { name: 'Crime types' });
    const search = dialog.getByRole('searchbox', { name: 'Search types' });
    await expect(search).toBeFocused();
    const standard = dialog.getByRole('group', { name: 'Standard types' });
    const more = dialog.getByRole('group', { name: 'More types' });
    const standardOptions = await optionsOf(standard);
    const moreOptions = await optionsOf(more);
    expect(standardOptions.map((o) => o.type).sort()).toEqual(
      ['Arrest', 'Arson', 'Assault', 'Burglary', 'Other', 'Robbery', 'Shooting', 'Theft', 'Vandalism'].sort(),
    );
    expect(moreOptions.map((o) => o.type)).toEqual([...CITY_CATEGORIES]);
    expect(moreOptions.map((o) => o.count)).toEqual(
      CITY_CATEGORIES.map((_, k) => CITY_CATEGORIES.length - k),
    );
    const counts = standardOptions.map((o) => o.count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect([...counts, ...moreOptions.map((o) => o.count)].reduce((a, b) => a + b, 0)).toBe(all);
    await page.screenshot({
      path: path.join(ARTIFACTS_DIR, `filters-types-${size.width}x${size.height}.png`),
    });

    // Search narrows it; a pick filters at once and shows as a chip.
    await search.fill('larceny');
    await expect(standard).toHaveCount(0);
    await expect(more.getByRole('checkbox')).toHaveCount(5);
    await more.getByRole('checkbox', { name: /^Larceny - All Other/ }).check();
    expect(await total(page)).toBe(48);
    const chips = bar.getByRole('list', { name: 'Filters on' });
    await expect(chips.getByRole('listitem')).toContainText(['Larceny - All Other']);

    // Escape closes it, focus back on its button, which names the choice.
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(picker).toBeFocused();
    await expect(picker).toHaveText(/Types: 1 chosen/);
    await maxRows('one type chosen');

    // The keyboard: Down from the search to the types, Space picks, Up back to the search.
    await page.keyboard.press('Enter');
    await expect(search).toBeFocused();
    await search.fill('robbery');
    await page.keyboard.press('ArrowDown');
    const first = dialog.getByRole('checkbox').first();
    await expect(first).toBeFocused();
    await expect(first).toHaveAccessibleName(/^Robbery\b/);
    await page.keyboard.press('ArrowDown');
    await expect(dialog.getByRole('checkbox').nth(1)).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Space');
    await expect(first).toBeChecked();
    await expect(chips.getByRole('listitem')).toContainText(['Larceny - All Other', 'Robbery']);
    await page.keyboard.press('Space');
    await expect(first).not.toBeChecked();
    await page.keyboard.press('ArrowUp');
    await expect(search).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(picker).toBeFocused();

    // Many chosen: one chip for them all, still two rows.
    await page.keyboard.press('Enter');
    await expect(search).toBeFocused();
    for (const name of ['Theft', 'Hit and Run', 'Welfare Check', 'Other']) {
      await search.fill(name);
      await dialog
        .getByRole('checkbox', { name: new RegExp(`^${name}`) })
        .first()
        .check();
    }
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(picker).toBeFocused();
    await expect(chips.getByRole('listitem')).toHaveText([/^5 types/]);
    await maxRows('five types chosen');
    await chips.getByRole('button', { name: /^Remove the types/ }).click();
    expect(await total(page)).toBe(all);
    await expect(picker).toHaveText(/Types: all/);

    // × on a type's chip removes that type.
    await picker.click();
    await search.fill('narcotics');
    await dialog.getByRole('checkbox', { name: /^Narcotics/ }).check();
    await page.mouse.click(5, size.height - 5); // outside closes it too
    await expect(dialog).toHaveCount(0);
    expect(await total(page)).toBe(CITY_CATEGORIES.length - CITY_CATEGORIES.indexOf('Narcotics'));
    await chips.getByRole('button', { name: 'Remove the type Narcotics' }).click();
    await expect(chips).toHaveCount(0);
    expect(await total(page)).toBe(all);
  });
}

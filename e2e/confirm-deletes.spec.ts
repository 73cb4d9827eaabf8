/**
 * Deleting a reference layer and removing an alert rule ask first (issue 25, item 9): a modal dialog
 * that names what goes (the layer's name, its features, the file it came from, the filter that uses
 * it; the rule's name and what it watches), focus on Cancel, Tab kept inside, Escape cancelling with
 * focus back on the opener — and nothing is deleted until the dialog's own button is pressed (a reload
 * still finds it). Leaving the office asks the same way (office.spec.ts, which starts PostgreSQL).
 */
import { expect, test as base } from './fixtures';
import { openView } from './support/app';
import { enterTwice, expectModalConfirmation } from './support/confirm';
import { importHalvesLayer } from './support/halves';
import { seedMapData } from './support/mapSeed';

const test = base.extend({
  dataDir: async ({ dataDir }, use) => {
    seedMapData(dataDir, 400);
    await use(dataDir);
  },
});

test('deleting a layer asks in a modal dialog naming it and its features; Escape keeps it', async ({
  page,
}) => {
  const panel = await importHalvesLayer(page);
  const toggle = page.getByRole('button', { name: /^Layers/ });
  // A filter by one of its features is on: the dialog says it goes with the layer.
  await panel.getByLabel('Feature', { exact: true }).selectOption({ label: 'North half' });
  await panel.getByRole('button', { name: 'Filter by this feature' }).click();
  await expect(page.getByTestId('feature-chip')).toContainText('Inside North half (Halves)');

  const opener = panel.getByRole('button', { name: 'Delete the layer Halves' });
  const dialog = page.getByRole('dialog', { name: 'Delete the layer “Halves”?' });
  await opener.click();
  await expect(dialog).toContainText('Its 2 features are deleted from this data folder');
  await expect(dialog).toContainText('“halves.geojson”, is not touched');
  await expect(dialog).toContainText('The filter by one of its features is removed');
  await expectModalConfirmation(page, dialog, opener);
  await enterTwice(page, dialog, opener);
  await expect(page.getByTestId('feature-chip')).toBeVisible();

  // Nothing was deleted: the engine still has it after a reload.
  await page.reload();
  await openView(page, 'Map');
  await toggle.click();
  await expect(panel.getByRole('checkbox', { name: 'Halves (2)' })).toBeVisible();

  await opener.click();
  await dialog.getByRole('button', { name: 'Delete layer' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(panel.getByText('No reference layers yet')).toBeVisible();
  await expect(page.getByTestId('feature-chip')).toHaveCount(0);
  // Its button went with it: focus on the panel's toggle, not lost to the page.
  await expect(toggle).toBeFocused();
  await page.reload();
  await openView(page, 'Map');
  await toggle.click();
  await expect(panel.getByText('No reference layers yet')).toBeVisible();
});

test('removing an alert rule asks in a modal dialog naming it; Escape keeps it', async ({ page }) => {
  await openView(page, 'Alerts');
  await page.getByRole('button', { name: 'New rule' }).click();
  const form = page.getByRole('form', { name: 'New alert rule' });
  await form.getByLabel('Name').fill('Burglaries anywhere');
  await form
    .getByRole('group', { name: 'Types (none chosen: all)' })
    .getByRole('checkbox', { name: 'Burglary', exact: true })
    .check();
  await form.getByRole('button', { name: 'Test against the last 90 days' }).click();
  await form.getByRole('button', { name: 'Save rule' }).click();
  const rules = page.getByRole('list', { name: 'Alert rules' });
  await expect(rules).toContainText('Burglaries anywhere');

  const opener = rules.getByRole('button', { name: 'Remove the rule Burglaries anywhere' });
  const dialog = page.getByRole('dialog', { name: 'Remove the rule “Burglaries anywhere”?' });
  await opener.click();
  await expect(dialog).toContainText('It stops watching All areas · any new incident · Burglary');
  await expect(dialog).toContainText('The alerts it already raised stay in the inbox.');
  await expectModalConfirmation(page, dialog, opener);
  await enterTwice(page, dialog, opener);

  await page.reload();
  await openView(page, 'Alerts');
  await expect(rules).toContainText('Burglaries anywhere');

  await opener.click();
  await dialog.getByRole('button', { name: 'Remove rule' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('No rules yet.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'New rule' })).toBeFocused();
  await page.reload();
  await openView(page, 'Alerts');
  await expect(page.getByText('No rules yet.')).toBeVisible();
});

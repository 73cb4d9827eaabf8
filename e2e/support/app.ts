/** Small page helpers shared by the journeys: open a view from the navigation, find a Settings section. */
import { expect, type Locator, type Page } from '@playwright/test';

export const VIEW_LABELS = [
  'Map',
  'Table',
  'History',
  'Analysis',
  'Export',
  'Areas',
  'Alerts',
  'Settings',
] as const;
export type ViewLabel = (typeof VIEW_LABELS)[number];

export function navLink(page: Page, label: ViewLabel): Locator {
  return page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: label, exact: true });
}

export async function openView(page: Page, label: ViewLabel): Promise<void> {
  await navLink(page, label).click();
  await expect(page.getByRole('heading', { level: 1, name: label, exact: true })).toBeVisible();
}

export function section(page: Page, name: 'API key' | 'Connection'): Locator {
  return page.getByRole('region', { name, exact: true });
}

/** Settings: the base URL, the Enterprise plan at `rate` a minute and the API key, each saved as a user does. */
export async function connectEnterprise(
  page: Page,
  { url, rate, key }: { url: string; rate: number; key: string },
): Promise<void> {
  await openView(page, 'Settings');
  const connection = section(page, 'Connection');
  await connection.getByLabel('Base URL').fill(url);
  await connection.getByLabel('Plan').selectOption('enterprise');
  await connection.getByLabel('Rate (requests per minute)').fill(String(rate));
  await connection.getByRole('button', { name: 'Save settings' }).click();
  await expect(connection.getByRole('status')).toHaveText('Settings saved.');
  const apiKey = section(page, 'API key');
  await apiKey.getByLabel('API key', { exact: true }).fill(key);
  await apiKey.getByRole('button', { name: 'Save key' }).click();
  await expect(apiKey.getByTestId('key-state')).toHaveText('An API key is set');
}

/** Areas: a circle added by its centre and radius, under `name`. */
export async function addAreaByCoordinates(
  page: Page,
  circle: { lat: number; lon: number; radiusMi: number },
  name: string,
): Promise<void> {
  await openView(page, 'Areas');
  const form = page.getByRole('form', { name: 'Add an area' });
  await form.getByRole('button', { name: 'Coordinates' }).click();
  await form.getByLabel('Centre (latitude, longitude)').fill(`${circle.lat}, ${circle.lon}`);
  await form.getByLabel('Radius (miles)').fill(String(circle.radiusMi));
  await form.getByLabel('Name').fill(name);
  await form.getByRole('button', { name: 'Add area' }).click();
}

/**
 * The area card's sync plan, opened: a freshly added area's card opens it by itself, an older
 * one through "Sync now…". Waits for the card to show one or the other first, so a card still
 * rendering is not taken for one without its plan.
 */
export async function openSyncPlan(card: Locator): Promise<Locator> {
  const plan = card.getByTestId('sync-plan');
  const button = card.getByRole('button', { name: 'Sync now…' });
  await expect(plan.or(button).first()).toBeVisible();
  if (!(await plan.isVisible())) await button.click();
  await expect(plan).toBeVisible();
  return plan;
}

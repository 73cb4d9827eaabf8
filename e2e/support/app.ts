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

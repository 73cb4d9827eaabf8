/** Looks for a secret everywhere a renderer or a host could have left it. */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';

/** Every file under `dir` (SQLite file, -wal/-shm, logs …) whose bytes contain `needle`. */
export async function filesContaining(dir: string, needle: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const bytes = Buffer.from(needle, 'utf8');
  const hits: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const content = await readFile(file).catch(() => null);
    if (content?.includes(bytes)) hits.push(path.relative(dir, file));
  }
  return hits;
}

/** Every file under `dir`, relative, so a test can show it looked at the database and its logs. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

/** What the page holds: its DOM, input values, web storage, cookies and IndexedDB names, as text. */
export async function pageState(page: Page): Promise<Record<string, string>> {
  const inside = await page.evaluate(async () => {
    const dump = (storage: Storage) =>
      Array.from({ length: storage.length }, (_, i) => {
        const name = storage.key(i) ?? '';
        return `${name}=${storage.getItem(name) ?? ''}`;
      }).join('\n');
    const databases = 'databases' in indexedDB ? await indexedDB.databases() : [];
    return {
      inputs: Array.from(document.querySelectorAll('input, textarea, select'))
        .map((el) => (el as HTMLInputElement).value)
        .join('\n'),
      localStorage: dump(window.localStorage),
      sessionStorage: dump(window.sessionStorage),
      documentCookie: document.cookie,
      indexedDB: databases.map((db) => db.name ?? '').join('\n'),
      title: document.title,
      url: window.location.href,
    };
  });
  const cookies = await page.context().cookies();
  return {
    ...inside,
    html: await page.content(),
    cookies: cookies.map((c) => `${c.name}=${c.value}`).join('\n'),
  };
}

/** The names of the places in `pageState` that contain `needle`. */
export async function pagePlacesContaining(page: Page, needle: string): Promise<string[]> {
  const state = await pageState(page);
  return Object.entries(state)
    .filter(([, text]) => text.includes(needle))
    .map(([place]) => place);
}

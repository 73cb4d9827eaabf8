/** Where things are, independent of the directory Playwright was started from. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const E2E_DIR = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const ROOT = path.dirname(E2E_DIR);
/** Screenshots of each view (git-ignored). */
export const ARTIFACTS_DIR = path.join(E2E_DIR, 'artifacts');

/**
 * The CLI's way to print a report: the web host's, not a second one. `report` builds out/ when it
 * is stale (scripts/web.mjs, as `npm run web` does), starts the web host on 127.0.0.1 around the
 * command's engine — its launch URL is never printed, so no browser signs in — and calls
 * startExport through the host's engine: the host serves the built renderer's report page and the
 * offline tiles to headless Chromium holding a print grant for that one job (src-main/web
 * server.ts, reportPrinter.ts), exactly as a report printed from the web host.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { ensureBuilt, ROOT } from '../../scripts/web.mjs';
import type { EngineHandle } from '../engine/index';
import { DEFAULT_CHROMIUM } from '../web/reportPrinter';
import { startWebHost } from '../web/server';
import { CallFailure } from './failure';
import type { Io } from './io';
import type { Session } from './session';

/** The Chromium that prints: BLOTTER_CHROMIUM, else Debian's. */
export const chromiumOf = (env: Io['env']): string => env.BLOTTER_CHROMIUM?.trim() || DEFAULT_CHROMIUM;

/** A failure (exit 1) naming what to install when the Chromium that prints is not there. */
export async function requireChromium(chromium: string): Promise<void> {
  try {
    await access(chromium, constants.X_OK);
  } catch {
    throw new CallFailure(
      'internal',
      `No Chromium to print the report with: ${chromium} is not installed (or not executable). ` +
        'Install it (Debian/Ubuntu: sudo apt-get install chromium), or set BLOTTER_CHROMIUM to a Chromium or Chrome.',
    );
  }
}

/** out/ as the web host serves it, built first when older than its sources. */
export function builtRenderer(): string {
  ensureBuilt('blotter report:');
  return path.join(ROOT, 'out', 'renderer');
}

/**
 * Runs `work` with a session whose calls go through a web host started around `s`'s engine; a PDF
 * export is written to whatever `destination()` answers when it starts.
 */
export async function withPrintHost<T>(
  s: Session,
  options: { rendererDir: string; chromium: string; destination: () => string },
  work: (printing: Session, engine: EngineHandle) => Promise<T>,
): Promise<T> {
  const host = await startWebHost({
    engine: s.engine,
    rendererDir: options.rendererDir,
    chromium: options.chromium,
    chooseDestination: async () => options.destination(),
  });
  try {
    const printing: Session = {
      ...s,
      async call(name, input) {
        const result = await host.engine.call(name, input);
        if (!result.ok) throw CallFailure.of(result.error);
        return result.value;
      },
    };
    return await work(printing, host.engine);
  } finally {
    await host.close();
  }
}

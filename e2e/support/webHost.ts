/**
 * Starts the web host (`tsx src-main/web/main.ts --data-dir DIR --port 0`) in its own process group
 * and waits for the URL line it prints first. Stopping ends that group only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { LogBuffer } from './logBuffer';
import { ROOT } from './paths';

const URL_LINE = /^Blotter is running at (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)\s*$/;
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 8_000;

export type WebHost = { url: string; stop(): Promise<void> };

const tail = (text: string): string =>
  text.trim() ? text.trim().split('\n').slice(-30).join('\n') : '(nothing)';

function waitForUrl(child: ChildProcess, logs: LogBuffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      reject(new Error(`${why}\nIts output:\n${tail(logs.text)}`));
    };
    const timer = setTimeout(
      () => fail(`The web host printed no URL within ${START_TIMEOUT_MS / 1000} s.`),
      START_TIMEOUT_MS,
    );
    if (!child.stdout) return fail('The web host has no stdout.');
    createInterface({ input: child.stdout }).on('line', (line) => {
      const match = URL_LINE.exec(line);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('error', (error) => fail(`The web host could not be started: ${error.message}`));
    child.once('exit', (code, signal) =>
      fail(`The web host exited (${signal ?? `code ${code}`}) before its URL.`),
    );
  });
}

function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined)
    return Promise.resolve();
  const pid = child.pid;
  return new Promise((resolve) => {
    const killer = setTimeout(() => {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, STOP_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      clearTimeout(killer);
      resolve();
    }
  });
}

export async function startWebHost(
  dataDir: string,
  logs: LogBuffer,
  env: Record<string, string> = {},
): Promise<WebHost> {
  // The project's own tsx (what `npx tsx` runs), without npm's start-up cost and notices.
  const tsx = path.join(ROOT, 'node_modules', '.bin', 'tsx');
  const child = spawn(tsx, ['src-main/web/main.ts', '--data-dir', dataDir, '--port', '0'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', ...env },
  });
  child.stdout?.on('data', (chunk: Buffer) => logs.append(chunk));
  child.stderr?.on('data', (chunk: Buffer) => logs.append(chunk));
  try {
    return { url: await waitForUrl(child, logs), stop: () => stopGroup(child) };
  } catch (error) {
    await stopGroup(child);
    throw error;
  }
}

/** Starts the web host on a data folder (`node --import tsx src-main/web/main.ts`) and reads its URL. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

export type HostProcess = { url: string; child: ChildProcess; stop(): Promise<void> };

export const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** How long `stop()` waits after SIGTERM (the host closes its server, then the engine) before SIGKILL. */
const STOP_GRACE_MS = 8_000;

export function startHost(dataDir: string, nodeArgs: string[] = []): Promise<HostProcess> {
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', 'src-main/web/main.ts', '--data-dir', dataDir, '--port', '0'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
  );
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4000)));
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      child.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`The web host printed no URL.\n${errors}`));
    }, 60_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The web host exited (${code}).\n${errors}`));
    });
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      const match = /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(line);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ url: match[1], child, stop });
      }
    });
  });
}

/**
 * One basemap download at a time per data folder, across the app and the CLI: a lock file
 * `<data>/basemap/download.lock` created exclusively (O_EXCL) holding the holder's pid and host.
 * A lock whose pid on this host is gone is taken over; another live holder is refused with its pid.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { EngineError } from '../errors';

type Holder = { pid: number; host: string };

function alive(h: Holder): boolean {
  if (h.host !== hostname()) return true;
  if (h.pid === process.pid) return true;
  try {
    process.kill(h.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(file: string): Holder | null {
  try {
    const h = JSON.parse(readFileSync(file, 'utf8')) as Holder;
    return typeof h.pid === 'number' && typeof h.host === 'string' ? h : null;
  } catch {
    return null;
  }
}

/** Takes the lock or throws `conflict` naming the holder; returns the release function. */
export function takeDownloadLock(file: string): () => void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname() }));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        rmSync(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(file);
      if (holder && alive(holder)) {
        throw new EngineError(
          'conflict',
          `A basemap download is already running in another Blotter (pid ${holder.pid}).`,
        );
      }
      rmSync(file, { force: true }); // the holder is gone: take it over
    }
  }
  throw new EngineError('conflict', 'A basemap download is already starting in another Blotter.');
}

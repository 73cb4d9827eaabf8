/**
 * The sync's progress as stderr lines a person can follow: each starts with the local time
 * (HH:MM:SS); a wait says "retrying in N s" from when it ends, never a meaningless "about 0 s left";
 * a failure's words are left to the one `blotter:` line that ends the command.
 */
import type { EngineEvent } from '../../src-shared/contract';

type SyncProgress = Extract<EngineEvent, { type: 'syncProgress' }>;
type ArchiveReading = Extract<EngineEvent, { type: 'archiveReading' }>;

/** The local wall-clock time, HH:MM:SS. */
export function clockTime(at: number): string {
  const d = new Date(at);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/** One line for a progress event at `now`. */
export function progressLine(e: SyncProgress, now: number): string {
  const waiting = e.state === 'waiting-rate' || e.state === 'retrying' || e.state === 'offline';
  let tail = '';
  if (waiting) {
    // The engine's words for a wait already say how long ("Retrying in 4 s", "Waiting 12 s: …").
    if (!e.message && e.retryAt !== undefined)
      tail = `, retrying in ${Math.max(1, Math.ceil((e.retryAt - now) / 1000))} s`;
  } else if (e.state === 'running' && e.etaSeconds !== null && e.etaSeconds > 0) {
    tail = `, about ${e.etaSeconds} s left`;
  }
  // A failure is said once, by the command's last line; a wait's reason is worth a word here.
  const words = e.state === 'failed' ? '' : (e.message ?? '');
  return (
    `${clockTime(now)} sync: area ${e.areaId} ${e.kind} ${e.state}: ${e.done}/${e.planned} requests, ` +
    `${e.new} new, ${e.updated} updated, ${e.removed} removed${tail}${words ? ` — ${words}` : ''}\n`
  );
}

/** Prints one line per state change, and at most one a second while running. */
export function progressPrinter(write: (line: string) => void, now: () => number = Date.now) {
  let lastAt = 0;
  let lastState = '';
  return (e: SyncProgress): void => {
    const at = now();
    const changed = e.state !== lastState;
    if (!changed && e.state === 'running' && at - lastAt < 1000) return;
    lastAt = at;
    lastState = e.state;
    write(progressLine(e, at));
  };
}

/**
 * Lines for a command waiting on the archive being read into memory (a restored backup or another
 * process changed the file since its saved snapshot, or there is none): nothing for a read done
 * within a second; then at most a line a second, and one when it is done.
 */
export function archiveReadingPrinter(write: (line: string) => void, now: () => number = Date.now) {
  let startedAt: number | null = null;
  let lastAt = -Infinity;
  let printed = false;
  const count = (n: number): string => n.toLocaleString('en-US');
  return (e: ArchiveReading): void => {
    const at = now();
    startedAt ??= at;
    if (e.done >= e.total) {
      if (printed)
        write(
          `${clockTime(at)} archive: read ${count(e.done)} incidents in ${((at - startedAt) / 1000).toFixed(1)} s\n`,
        );
      startedAt = null;
      lastAt = -Infinity;
      printed = false;
      return;
    }
    if (at - startedAt < 1000 || at - lastAt < 1000) return;
    lastAt = at;
    printed = true;
    write(
      `${clockTime(at)} archive: reading it into memory, ${count(e.done)} of ${count(e.total)} incidents\n`,
    );
  };
}

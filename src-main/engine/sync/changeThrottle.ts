/**
 * `incidentsChanged` from the sync's commits, at most one event every `everyMs` (250 ms): the first
 * commit that changed rows is announced at once, later ones within the interval are gathered into
 * one event at its end. The event names the area when only one area changed in the interval, none
 * when several did (the views re-query either way). Closing drops what is still gathered, and
 * nothing is sent after it.
 */
export type IncidentsChangedEvent = { type: 'incidentsChanged'; areaId?: number };

export const CHANGE_EVENT_EVERY_MS = 250;

export type ChangeThrottle = {
  /** A commit changed incidents of `areaId`. */
  changed(areaId: number): void;
  close(): void;
};

export function createChangeThrottle(
  emit: (event: IncidentsChangedEvent) => void,
  everyMs = CHANGE_EVENT_EVERY_MS,
  now: () => number = Date.now,
): ChangeThrottle {
  let last = -Infinity;
  let gathered = new Set<number>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let closed = false;

  const send = (): void => {
    timer = null;
    const areas = [...gathered];
    gathered = new Set();
    last = now();
    emit(areas.length === 1 ? { type: 'incidentsChanged', areaId: areas[0] } : { type: 'incidentsChanged' });
  };

  return {
    changed(areaId) {
      if (closed) return; // a run's last commit may land while the engine closes
      gathered.add(areaId);
      if (timer) return;
      const wait = last + everyMs - now();
      if (wait <= 0) send();
      else timer = setTimeout(send, wait);
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      gathered.clear();
    },
  };
}

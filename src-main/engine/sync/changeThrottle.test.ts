import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createChangeThrottle, type IncidentsChangedEvent } from './changeThrottle';

describe('the incidentsChanged throttle', () => {
  let sent: Array<{ at: number; event: IncidentsChangedEvent }>;
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
    sent = [];
  });
  afterEach(() => vi.useRealTimers());
  const throttle = () => createChangeThrottle((event) => sent.push({ at: Date.now(), event }), 250);

  it('announces the first commit at once and gathers the rest into one event per 250 ms', () => {
    const t = throttle();
    t.changed(1);
    expect(sent).toEqual([{ at: 0, event: { type: 'incidentsChanged', areaId: 1 } }]);
    for (let ms = 10; ms < 600; ms += 10) {
      vi.advanceTimersByTime(10);
      t.changed(1);
    }
    vi.advanceTimersByTime(1000);
    expect(sent.map((s) => s.at)).toEqual([0, 250, 500, 750]);
    expect(sent.every((s) => s.event.areaId === 1)).toBe(true);
  });

  it('names no area when several changed in one interval', () => {
    const t = throttle();
    t.changed(1);
    t.changed(1);
    t.changed(2);
    vi.advanceTimersByTime(250);
    expect(sent.map((s) => s.event)).toEqual([
      { type: 'incidentsChanged', areaId: 1 },
      { type: 'incidentsChanged' },
    ]);
  });

  it('sends nothing after close', () => {
    const t = throttle();
    t.changed(1);
    t.changed(1);
    t.close();
    t.changed(2);
    vi.advanceTimersByTime(1000);
    expect(sent).toHaveLength(1);
  });
});

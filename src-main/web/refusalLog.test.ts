import { describe, expect, it } from 'vitest';
import { createRefusalLog } from './refusalLog';

describe('refusal log', () => {
  it('turns 80,000 refusals in 8 seconds into one line, then one summary a minute with the counts', () => {
    const lines: string[] = [];
    let t = 0;
    const log = createRefusalLog((line) => lines.push(line), { now: () => t });
    for (let i = 0; i < 80_000; i++) {
      t = i / 10; // 8 seconds
      log.refused(i % 4 === 0 ? 'wrong token' : 'not signed in');
    }
    expect(lines).toEqual([
      'refused a request (wrong token); further refusals are counted and logged once a minute',
    ]);
    t = 60_000;
    log.refused('not signed in');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toBe(
      'refused 79999 more requests in the last minute (not signed in: 60000, wrong token: 19999)',
    );
    expect(lines[2]).toMatch(/^refused a request \(not signed in\)/);
    log.flush();
    expect(lines).toHaveLength(3);
  });

  it('writes the pending count when the window ends, without another refusal', async () => {
    const lines: string[] = [];
    const log = createRefusalLog((line) => lines.push(line), { windowMs: 20 });
    log.refused('foreign Host');
    log.refused('foreign Host');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(lines).toEqual([
      expect.stringMatching(/^refused a request \(foreign Host\)/),
      'refused 1 more request in the last minute (foreign Host: 1)',
    ]);
  });
});

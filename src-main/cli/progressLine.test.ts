/**
 * The CLI's lines while a command waits for the archive's (re-)read: nothing for a read done
 * within a second, then at most a line a second with how far it is, and one when it is done.
 */
import { describe, expect, it } from 'vitest';
import { archiveReadingPrinter } from './progressLine';

const event = (done: number, total: number) => ({ type: 'archiveReading' as const, done, total });

describe('archiveReadingPrinter', () => {
  it('says nothing of a quick read, then follows a long one each second and says when it is done', () => {
    const lines: string[] = [];
    let t = Date.parse('2025-03-14T12:00:00');
    const print = archiveReadingPrinter(
      (line) => lines.push(line),
      () => t,
    );

    print(event(20_000, 40_000));
    t += 300;
    print(event(40_000, 40_000));
    expect(lines).toEqual([]); // a quick read

    t += 5_000;
    for (let done = 20_000; done < 1_000_000; done += 20_000) {
      print(event(done, 1_000_000));
      t += 250;
    }
    print(event(1_000_000, 1_000_000));
    // 50 chunks over 12.5 s: a line a second after the first, then the end.
    expect(lines.length).toBeGreaterThanOrEqual(11);
    expect(lines.length).toBeLessThanOrEqual(13);
    expect(lines[0]).toMatch(
      /^\d\d:\d\d:\d\d archive: reading it into memory, [\d,]+ of 1,000,000 incidents\n$/,
    );
    expect(lines.at(-1)).toMatch(/^\d\d:\d\d:\d\d archive: read 1,000,000 incidents in 12\.\d s\n$/);

    lines.length = 0;
    print(event(20_000, 40_000)); // the next read starts afresh
    t += 100;
    print(event(40_000, 40_000));
    expect(lines).toEqual([]);
  });
});

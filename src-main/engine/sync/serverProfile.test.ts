import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../store/database';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import {
  blankProfile,
  createProfileBook,
  latestSurface,
  learnReading,
  limitRadius,
  readProfile,
  sawPage,
  shortPageProven,
  trustRadius,
  type ServerProfile,
} from './serverProfile';

let dir: TempDir | null = null;
afterEach(() => dir?.remove());

const URL = 'https://api.example.test';

describe('the server profile', () => {
  it('learns as pure functions: trust never above a learned maximum, a page cap only grows', () => {
    const p = blankProfile(URL);
    const limited = limitRadius(trustRadius(p, 0.08), 0.04, 'refused');
    expect(limited.radius).toMatchObject({ trusted: 0.04, max: 0.04, reason: 'refused' });
    expect(trustRadius(limited, 0.06).radius.trusted).toBe(0.04);
    expect(trustRadius(p, 0.001)).toBe(p);
    expect(learnReading(learnReading(p)).radius.reading).toBe('great-circle');
    expect(sawPage(sawPage(p, 300), 120).pageMax).toBe(300);
    expect(shortPageProven(sawPage(p, 300), 250, 25)).toBe(true);
    expect(shortPageProven(p, 250, 25)).toBe(false);
    expect(shortPageProven(p, 251, 25)).toBe(true);
  });

  it('is read and recorded in one place: written only when it changed, mirrored where a leader keeps it', async () => {
    dir = makeTempDir();
    const db = openDatabase(`${dir.path}/p.sqlite`);
    const mirrored: ServerProfile[] = [];
    let t = 100;
    const book = createProfileBook(
      db,
      URL,
      () => t,
      async (p) => void mirrored.push(p),
    );
    await book.learn((p) => trustRadius(p, 0.05));
    t = 200;
    await book.learn((p) => trustRadius(p, 0.03)); // nothing new: not written, not mirrored
    await book.learn((p) => ({
      ...p,
      surface: { baseUrl: URL, probedAt: 150, state: 'verified', reason: 'ok', history: null },
    }));
    expect(mirrored.map((p) => p.radius.trusted)).toEqual([0.05, 0.05]);
    expect(readProfile(db, URL)).toEqual(book.get());
    expect(book.get().radius.trusted).toBe(0.05);
    expect(latestSurface(db)?.state).toBe('verified');
    expect(db.prepare('SELECT updated_at FROM server_profiles').pluck().get()).toBe(200);
    db.close();
  });
});

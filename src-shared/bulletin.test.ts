/** The bulletin's paper: the analyst's choice, else the locale's (Letter where it is used, A4 elsewhere). */
import { describe, expect, it } from 'vitest';
import { paperLocale, paperOf } from './bulletin';

describe('the bulletin’s paper', () => {
  it('is Letter in the United States and Canada, A4 in the rest of the world', () => {
    expect(paperOf('auto', 'en_US.UTF-8')).toBe('letter');
    expect(paperOf('auto', 'fr-CA')).toBe('letter');
    expect(paperOf('auto', 'en_GB.UTF-8')).toBe('a4');
    expect(paperOf('auto', 'de-DE')).toBe('a4');
    expect(paperOf('auto', 'en-AU')).toBe('a4');
  });
  it('is Letter for a locale without a region (C, POSIX: cron’s)', () => {
    expect(paperOf('auto', 'C')).toBe('letter');
    expect(paperOf('auto', 'POSIX')).toBe('letter');
    expect(paperOf('auto', undefined)).toBe('letter');
  });
  it('follows the choice whatever the locale', () => {
    expect(paperOf('a4', 'en_US.UTF-8')).toBe('a4');
    expect(paperOf('letter', 'de_DE.UTF-8')).toBe('letter');
  });
  it('reads LC_ALL over LC_PAPER over LANG, then the runtime’s locale', () => {
    expect(paperLocale({ LC_ALL: 'de_DE', LC_PAPER: 'en_US', LANG: 'en_US' }, 'en-US')).toBe('de_DE');
    expect(paperLocale({ LC_PAPER: 'en_GB', LANG: 'en_US' }, 'en-US')).toBe('en_GB');
    expect(paperLocale({ LANG: 'fr_FR.UTF-8' }, 'en-US')).toBe('fr_FR.UTF-8');
    expect(paperLocale({}, 'en-GB')).toBe('en-GB');
  });
});

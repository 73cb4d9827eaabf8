import { describe, expect, it } from 'vitest';
import { closesOnEscape } from './useEscapeToClose';

const key = (k: string, defaultPrevented = false) => ({ key: k, defaultPrevented });

describe('Escape closes the incident panel', () => {
  it('from the map, the table, a button or the page', () => {
    for (const tag of ['DIV', 'BUTTON', 'BODY', 'A'])
      expect(closesOnEscape(key('Escape'), { tagName: tag } as unknown as EventTarget)).toBe(true);
    expect(closesOnEscape(key('Escape'), null)).toBe(true);
  });

  it('but not from a text field, nor when something nearer used the key, nor for other keys', () => {
    expect(closesOnEscape(key('Escape'), { tagName: 'INPUT' } as unknown as EventTarget)).toBe(false);
    expect(closesOnEscape(key('Escape'), { tagName: 'SELECT' } as unknown as EventTarget)).toBe(false);
    expect(closesOnEscape(key('Escape', true), null)).toBe(false);
    expect(closesOnEscape(key('Enter'), null)).toBe(false);
  });
});

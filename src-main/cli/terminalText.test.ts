import { describe, expect, it } from 'vitest';
import { forTerminal } from './terminalText';

describe('forTerminal', () => {
  it('keeps plain text, newlines and tabs', () => {
    expect(forTerminal('Area 1 "Loop":\tfine\nnext — Café Ñandú 北')).toBe(
      'Area 1 "Loop":\tfine\nnext — Café Ñandú 北',
    );
  });

  it('drops CSI, OSC and other escape sequences whole', () => {
    expect(forTerminal('\x1b[2J\x1b[H\x1b[31mred\x1b[0m')).toBe('red');
    expect(forTerminal('\x1b]0;owned title\x07after')).toBe('after');
    expect(forTerminal('\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\')).toBe('link');
    expect(forTerminal('a\x1bcb\x1b')).toBe('ab');
    expect(forTerminal('\x9b2Jc1')).toBe('c1');
  });

  it('drops other C0 and C1 controls, DEL and carriage returns', () => {
    expect(forTerminal('a\x00b\x07c\x08d\re\x7ff\x85g')).toBe('abcdefg');
  });

  it('drops bidi overrides and isolates', () => {
    expect(forTerminal('invoice\u202Efdp.exe and \u2066x\u2069')).toBe('invoicefdp.exe and x');
  });
});

import { describe, expect, it } from 'vitest';
import { parseWebArgs, UsageError } from './args';

describe('parseWebArgs', () => {
  it('defaults to a free port', () => {
    expect(parseWebArgs([])).toEqual({ port: 0, help: false, demo: false });
  });

  it('reads --port in both spellings and skips --data-dir (read by resolveDataDir)', () => {
    expect(parseWebArgs(['--data-dir', '/tmp/x', '--port', '8080']).port).toBe(8080);
    expect(parseWebArgs(['--port=0', '--data-dir=/tmp/x']).port).toBe(0);
  });

  it('reads --demo, which takes no value', () => {
    expect(parseWebArgs(['--demo', '--data-dir', '/tmp/x']).demo).toBe(true);
    expect(() => parseWebArgs(['--demo=yes'])).toThrow(UsageError);
  });

  it('refuses bad values and unknown options', () => {
    for (const argv of [
      ['--port'],
      ['--port', 'abc'],
      ['--port', '70000'],
      ['--port', '-1'],
      ['--host', '0.0.0.0'],
      ['--data-dir'],
    ]) {
      expect(() => parseWebArgs(argv), argv.join(' ')).toThrow(UsageError);
    }
  });
});

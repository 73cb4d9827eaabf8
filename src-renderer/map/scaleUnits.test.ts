import { describe, expect, it } from 'vitest';
import { usesMiles } from './scaleUnits';

describe("the scale bar's units", () => {
  it('are miles where roads are measured in miles, metres and kilometres elsewhere', () => {
    for (const locale of ['en-US', 'en', 'es-US', 'en-LR', 'my'])
      expect(usesMiles(locale), locale).toBe(true);
    for (const locale of ['en-GB', 'en-CA', 'de-DE', 'fr', 'es-MX', 'ja-JP'])
      expect(usesMiles(locale), locale).toBe(false);
    expect(usesMiles('not a locale!')).toBe(false);
  });
});

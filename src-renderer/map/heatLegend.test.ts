import { describe, expect, it } from 'vitest';
import { HEAT_RAMP, heatGradientCss } from './heatGrid';

describe("the heat legend's bar", () => {
  it("runs through the ramp's colours, few (blue) to the densest (red), as the heat draws them", () => {
    const css = heatGradientCss();
    expect(css).toMatch(/^linear-gradient\(to right, rgb\(0 90 255\) 20%, .* rgb\(220 20 20\) 100%\)$/);
    // The ramp's top is the bar's right end: the densest spot is drawn in that red.
    expect(Array.from(HEAT_RAMP.subarray(255 * 4, 255 * 4 + 3))).toEqual([220, 20, 20]);
    expect(css).toContain('rgb(255 220 0) 70%');
  });
});

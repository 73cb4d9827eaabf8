import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEW, VIEWS, hashOf, viewFromHash } from './routes';

describe('routes', () => {
  it('round-trips every view through its hash', () => {
    for (const view of VIEWS) expect(viewFromHash(hashOf(view.id))).toBe(view.id);
  });

  it('falls back to the default view for an empty or unknown hash', () => {
    expect(viewFromHash('')).toBe(DEFAULT_VIEW);
    expect(viewFromHash('#')).toBe(DEFAULT_VIEW);
    expect(viewFromHash('#/nowhere')).toBe(DEFAULT_VIEW);
  });

  it('tolerates a missing slash, upper case and trailing parts', () => {
    expect(viewFromHash('#settings')).toBe('settings');
    expect(viewFromHash('#/Table')).toBe('table');
    expect(viewFromHash('#/areas/42')).toBe('areas');
    expect(viewFromHash('#/export?x=1')).toBe('export');
  });

  it('lists the views in navigation order', () => {
    expect(VIEWS.map((v) => v.label)).toEqual([
      'Map',
      'Table',
      'History',
      'Analysis',
      'Export',
      'Areas',
      'Alerts',
      'Settings',
    ]);
  });
});

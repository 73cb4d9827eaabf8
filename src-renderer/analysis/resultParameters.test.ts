import { describe, expect, it } from 'vitest';
import type { AnalysisResult } from './analysisSession';
import { resultParameters } from './resultParameters';

const provenance = { incidents: 1234, coverage: { range: { from: '2026-09-01', to: '2026-11-29' } } };
const text = (r: AnalysisResult) => resultParameters(r).map((p) => `${p.label}: ${p.value}`);

describe('the parameters beside an analysis result’s legend', () => {
  it('gives Gi*’s resolved cell size and band, saying "auto" where the form left them', () => {
    const value = {
      provenance,
      geojson: {
        parameters: {
          grid: 'square',
          cell_size_m: 212.4,
          distance_band_m: 424.8,
          cells: 2400,
          masked_cells: 7,
        },
      },
    };
    const auto = {
      call: 'analyzeHotSpots',
      value,
      filters: {},
      input: { grid: 'square' },
    } as unknown as AnalysisResult;
    expect(text(auto)).toEqual([
      'Grid: Squares',
      'Cell size: 212 m (auto: about 2,500 cells)',
      'Distance band: 425 m (auto: 2 cells)',
      'Cells: 2,400 (7 outside the areas)',
      'Period: Sep 1 – Nov 29, 2026',
      'Incidents counted: 1,234',
    ]);
    const given = { ...auto, input: { cellSizeM: 212.4, distanceBandM: 424.8 } } as AnalysisResult;
    expect(text(given)).toContain('Cell size: 212 m');
    expect(text(given)).toContain('Distance band: 425 m');
  });

  it('gives the density’s kernel radius and cell, and all dates when the filters have none', () => {
    const r = {
      call: 'analyzeKde',
      value: {
        provenance: { incidents: 40, coverage: { range: { from: null, to: null } } },
        parameters: { radius_m: 812.2, radius_default: true, cell_size_m: 81.2, kernel: 'quartic' },
      },
      filters: {},
      input: {},
    } as unknown as AnalysisResult;
    expect(text(r)).toEqual([
      "Kernel radius: 812 m (auto: ArcGIS's default)",
      'Cell size: 81 m (auto: radius / 10)',
      'Kernel: quartic',
      'Period: All dates the archive holds',
      'Incidents counted: 40',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { analysisSessionOf, isStale, type AnalysisResult } from './analysisSession';

describe('the analysis session', () => {
  it('is one store per workspace client, kept between openings of the view', () => {
    const client = {};
    const session = analysisSessionOf(client);
    const heard: number[] = [];
    const stop = session.subscribe(() => heard.push(session.get().fraction));
    session.set((s) => ({ ...s, fraction: 0.5 }));
    stop();
    session.set((s) => ({ ...s, fraction: 0.75 }));
    expect(heard).toEqual([0.5]);
    expect(analysisSessionOf(client).get().fraction).toBe(0.75);
    expect(analysisSessionOf({}).get().fraction).toBe(0);
  });

  it('marks a result stale when the filters in force differ from those it ran on', () => {
    const result = { filters: { preset: '30d', types: ['Theft'], area: { areaId: 1 } } } as Pick<
      AnalysisResult,
      'filters'
    >;
    expect(isStale(result, { area: { areaId: 1 }, types: ['Theft'], preset: '30d', text: undefined })).toBe(
      false,
    );
    expect(isStale(result, { preset: '30d', types: ['Theft', 'Arson'], area: { areaId: 1 } })).toBe(true);
    expect(isStale(result, { preset: '30d', types: ['Theft'] })).toBe(true);
  });
});

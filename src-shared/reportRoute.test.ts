import { describe, expect, it } from 'vitest';
import { paperCss, reportHash, reportJobOf, reportRouteOf, ReportParams } from './reportRoute';

describe('the report page route', () => {
  it('carries the job, and the paper when it is not Letter', () => {
    expect(reportHash('abc123')).toBe('#/report?job=abc123');
    expect(reportRouteOf(reportHash('abc123'))).toEqual({ job: 'abc123', paper: 'letter' });
    expect(reportHash('abc123', 'a4')).toBe('#/report?job=abc123&paper=a4');
    expect(reportRouteOf(reportHash('abc123', 'a4'))).toEqual({ job: 'abc123', paper: 'a4' });
    expect(reportJobOf(reportHash('abc123', 'a4'))).toBe('abc123');
  });

  it('is not the report page for another job name, paper or route', () => {
    expect(reportRouteOf('#/report?job=a%2F..')).toBeNull();
    expect(reportRouteOf('#/report?job=abc&paper=legal')).toBeNull();
    expect(reportRouteOf('#/map')).toBeNull();
  });

  it('sets the sheet for the page, and takes only a day and a known paper as a job’s parameters', () => {
    expect(paperCss('a4')).toBe('@page { size: A4; }');
    expect(paperCss('letter')).toBe('@page { size: Letter; }');
    expect(ReportParams.safeParse({ asOf: '2025-03-14', paper: 'a4' }).success).toBe(true);
    expect(ReportParams.safeParse({ asOf: 'monday' }).success).toBe(false);
    expect(ReportParams.safeParse({ paper: 'legal' }).success).toBe(false);
  });
});

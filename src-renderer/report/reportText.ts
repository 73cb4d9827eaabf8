/** The report's words that are not a section of their own: the running footer and the filters. */
import type { Paper } from '../../src-shared/bulletin';
import type { ReportModel } from '../../src-shared/exports';
import { dayText } from '../../src-shared/localTime';

/** A CSS string literal: quotes, backslashes, line breaks and '<' escaped. */
export function cssString(text: string): string {
  return `"${text.replace(/[\\"<\n\r]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `)}"`;
}

/** The page footer's left side: "Agency — Title" (the page number is in report.module.css). */
export function footerText(m: Pick<ReportModel, 'agency' | 'title'>): string {
  const text = [m.agency, m.title].filter((t) => t.trim()).join(' — ');
  return text.length > 90 ? `${text.slice(0, 89)}…` : text;
}

/** The @page rule that writes the footer's words; page numbers come from report.module.css. */
export function footerCss(m: Pick<ReportModel, 'agency' | 'title'>): string {
  return `@page { @bottom-left { content: ${cssString(footerText(m))}; font: 9px system-ui, sans-serif; color: #545e6b; } }`;
}

/** The @page rule that sets the paper: Letter or A4 (the model's choice, src-shared/bulletin.ts). */
export function pageCss(paper: Paper): string {
  return `@page { size: ${paper === 'a4' ? 'A4' : 'Letter'}; }`;
}

/** The filters in words, with their dates in the report's date format (the manifest keeps ISO days). */
export function reportFilterWords(m: Pick<ReportModel, 'filterWords'>): string[] {
  return m.filterWords.map((w) =>
    w.startsWith('Dates:') ? w.replace(/\b\d{4}-\d{2}-\d{2}\b/g, (d) => dayText(d)) : w,
  );
}

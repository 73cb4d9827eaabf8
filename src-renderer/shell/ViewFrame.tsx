/**
 * The frame every view shares: its heading (focusable, so navigation can move focus to it) and intro.
 * The intro gives up its space in every view: it stays for screen readers as the view's accessible
 * description, and the "?" at the foot of the sidebar shows it on demand (ViewHelp.tsx).
 * `fill`: the view takes the height left under the filter bar (Map, Table, Analysis) instead of
 * scrolling, and its title gives up its space too (kept for screen readers and for focus on
 * navigation, off screen).
 */
import { useId, type ReactNode } from 'react';
import { ViewHelp } from './ViewHelp';

export function ViewFrame({
  title,
  intro,
  children,
  fill = false,
}: {
  title: string;
  intro?: string;
  children: ReactNode;
  fill?: boolean;
}) {
  const headingId = useId();
  const introId = useId();
  return (
    <section
      className={fill ? 'view view-fill' : 'view'}
      aria-labelledby={headingId}
      aria-describedby={intro ? introId : undefined}
    >
      <header className="view-header">
        <h1 id={headingId} tabIndex={-1}>
          {title}
        </h1>
        {intro ? (
          <p className="view-intro visually-hidden" id={introId}>
            {intro}
          </p>
        ) : null}
      </header>
      {intro ? <ViewHelp title={title} intro={intro} id={`${introId}-help`} /> : null}
      {children}
    </section>
  );
}

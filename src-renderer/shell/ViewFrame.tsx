/**
 * The frame every view shares: its heading (focusable, so navigation can move focus to it) and intro.
 * `fill`: the view takes the height left under the filter bar (Map, Table) instead of scrolling.
 */
import { useId, type ReactNode } from 'react';

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
  return (
    <section className={fill ? 'view view-fill' : 'view'} aria-labelledby={headingId}>
      <header className="view-header">
        <h1 id={headingId} tabIndex={-1}>
          {title}
        </h1>
        {intro ? <p className="view-intro">{intro}</p> : null}
      </header>
      {children}
    </section>
  );
}

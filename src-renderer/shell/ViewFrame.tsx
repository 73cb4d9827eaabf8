/**
 * The frame every view shares: its heading (focusable, so navigation can move focus to it) and intro.
 * `fill`: the view takes the height left under the filter bar (Map, Table, Analysis) instead of
 * scrolling, and its title and intro give up their space: they stay for screen readers and for focus
 * on navigation (the intro is the view's accessible description), off screen.
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
  const introId = useId();
  return (
    <section
      className={fill ? 'view view-fill' : 'view'}
      aria-labelledby={headingId}
      aria-describedby={intro && fill ? introId : undefined}
    >
      <header className="view-header">
        <h1 id={headingId} tabIndex={-1}>
          {title}
        </h1>
        {intro ? (
          <p className="view-intro" id={introId}>
            {intro}
          </p>
        ) : null}
      </header>
      {children}
    </section>
  );
}

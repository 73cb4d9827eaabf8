/** The frame every view shares: its heading (focusable, so navigation can move focus to it) and intro. */
import { useId, type ReactNode } from 'react';

export function ViewFrame({
  title,
  intro,
  children,
}: {
  title: string;
  intro?: string;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section className="view" aria-labelledby={headingId}>
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

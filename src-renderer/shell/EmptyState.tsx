/**
 * What a view shows while it has nothing to show: what will appear here and what to do next.
 * When setup is unfinished (no keychain, key or base URL), that comes first and its link wins.
 */
import { hashOf, type ViewId } from '../app/routes';
import type { NextStep } from '../app/nextStep';

export type EmptyStateProps = {
  title: string;
  text: string;
  action?: { view: ViewId; label: string };
  setup: NextStep | null;
};

export function EmptyState({ title, text, action, setup }: EmptyStateProps) {
  const next = setup?.action ?? action;
  return (
    <div className="empty-state" data-testid="empty-state">
      <h2>{title}</h2>
      <p>{text}</p>
      {setup ? (
        <p className="empty-first">
          <strong>First: </strong>
          {setup.text}
        </p>
      ) : null}
      {next ? (
        <a className="button primary" href={hashOf(next.view)}>
          {next.label}
        </a>
      ) : null}
    </div>
  );
}

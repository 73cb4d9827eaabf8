/** The status bar fed from the workspace: link state, syncs under way (ticking waits), failures. */
import { useMemo } from 'react';
import { StatusBar, type StatusBarProps } from '../shell/StatusBar';
import { activeRuns } from './activity';
import { lastOutcome, latestFailure, linkStatus, syncSummary } from './statusLine';
import { useNow } from './useNow';
import { useWorkspace } from './WorkspaceContext';

export function WorkspaceStatusBar(props: Pick<StatusBarProps, 'keyStatus' | 'settings' | 'appInfo'>) {
  const { activity, areas } = useWorkspace();
  const { progress, link } = activity;
  const names = useMemo(() => new Map((areas ?? []).map((a) => [a.id, a.name])), [areas]);
  const now = useNow(activeRuns(progress).length > 0);
  return (
    <StatusBar
      {...props}
      link={linkStatus(link)}
      sync={syncSummary(progress, names, now) ?? lastOutcome(progress, names)}
      failure={latestFailure(progress, names)}
    />
  );
}

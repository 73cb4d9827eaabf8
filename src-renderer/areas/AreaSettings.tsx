/**
 * An area's schedule: how often it is refreshed, and a switch for automatic refreshing. The switch
 * is on while the area refreshes by itself and says so ("On"/"Off"); turning it off pauses the area.
 */
import { useId } from 'react';
import type { AreaView } from '../../src-shared/sync';
import { errorText } from '../text/errorText';
import { useWorkspace } from '../workspace/WorkspaceContext';
import styles from './areas.module.css';

export const REFRESH_CHOICES = [
  { minutes: 15, label: 'every 15 minutes' },
  { minutes: 30, label: 'every 30 minutes' },
  { minutes: 60, label: 'every hour' },
  { minutes: 360, label: 'every 6 hours' },
  { minutes: 1440, label: 'once a day' },
];

/** What the automatic-refresh switch says beside it, so its state reads in words, not only its knob. */
export function autoRefreshText(paused: boolean): string {
  return paused ? 'Off — paused, not refreshed automatically' : 'On';
}

export function AreaSettings({ area, onProblem }: { area: AreaView; onProblem: (text: string) => void }) {
  const { client, upsertArea } = useWorkspace();
  const id = useId();
  const choices = REFRESH_CHOICES.some((c) => c.minutes === area.refreshMinutes)
    ? REFRESH_CHOICES
    : [...REFRESH_CHOICES, { minutes: area.refreshMinutes, label: `every ${area.refreshMinutes} minutes` }];
  const run = (work: Promise<AreaView>) => work.then(upsertArea, (e: unknown) => onProblem(errorText(e)));
  return (
    <div className={styles.areaSettings}>
      <label htmlFor={`${id}-refresh`}>Refresh</label>
      <select
        id={`${id}-refresh`}
        value={area.refreshMinutes}
        disabled={area.paused}
        onChange={(e) =>
          void run(client.call('setAreaRefresh', { id: area.id, refreshMinutes: Number(e.target.value) }))
        }
      >
        {choices.map((c) => (
          <option key={c.minutes} value={c.minutes}>
            {c.label}
          </option>
        ))}
      </select>
      <label className={styles.switch}>
        <input
          type="checkbox"
          role="switch"
          checked={!area.paused}
          aria-describedby={`${id}-auto-state`}
          onChange={(e) => void run(client.call('setAreaPaused', { id: area.id, paused: !e.target.checked }))}
        />
        <span>Refresh automatically</span>
      </label>
      <span
        id={`${id}-auto-state`}
        className={area.paused ? 'muted' : undefined}
        data-testid="auto-refresh-state"
      >
        {autoRefreshText(area.paused)}
      </span>
    </div>
  );
}

/** An area's schedule: how often it is refreshed, and a switch that pauses automatic syncing. */
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
          checked={area.paused}
          onChange={(e) => void run(client.call('setAreaPaused', { id: area.id, paused: e.target.checked }))}
        />
        <span>Paused</span>
      </label>
      {area.paused ? <span className="muted">Not refreshed automatically</span> : null}
    </div>
  );
}

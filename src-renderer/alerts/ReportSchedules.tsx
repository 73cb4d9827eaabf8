/**
 * Emailed bulletins, beside the alerts' mail settings they use: each schedule sends the report of
 * an area or of one feature of a reference layer (ScheduleTarget.tsx) every week at a local time in
 * its zone ("every Monday 07:00") through the mail server set above. They run while Blotter is open, or when `blotter report --send-due` runs (cron);
 * a missed week is sent once when Blotter next looks. Add one, or remove one; nothing else to set.
 */
import { useCallback, useEffect, useId, useState } from 'react';
import type { ReportSchedule } from '../../src-shared/reportSchedules';
import { WEEKDAY_NAMES } from '../../src-shared/reportSchedules';
import { instantText } from '../../src-shared/localTime';
import type { AreaView } from '../../src-shared/sync';
import type { Client } from '../bridge/client';
import { errorText } from '../text/errorText';
import { InlineError } from '../shell/InlineMessage';
import { ScheduleTarget, targetInput, type Target } from './ScheduleTarget';
import styles from './alerts.module.css';

type Draft = Target & { weekday: string; time: string; paper: 'letter' | 'a4'; to: string };
const EMPTY: Draft = {
  areaId: '',
  layerId: '',
  featureId: '',
  weekday: '1',
  time: '07:00',
  paper: 'letter',
  to: '',
};

export function ReportSchedules({ client }: { client: Client }) {
  const id = useId();
  const [schedules, setSchedules] = useState<ReportSchedule[] | null>(null);
  const [areas, setAreas] = useState<AreaView[]>([]);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    const [{ schedules: s }, { areas: a }] = await Promise.all([
      client.call('listReportSchedules', {}),
      client.call('listAreas', {}),
    ]);
    setSchedules(s);
    setAreas(a);
  }, [client]);
  useEffect(() => {
    load().catch((e: unknown) => setError(errorText(e)));
  }, [load]);

  const act = async (work: () => Promise<unknown>) => {
    setError(null);
    try {
      await work();
      await load();
    } catch (e) {
      setError(errorText(e));
    }
  };
  const areaId = draft.areaId || String(areas[0]?.id ?? '');
  const to = draft.to
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);

  return (
    <section className={styles.section} aria-labelledby={`${id}-h`} data-testid="report-schedules">
      <h2 id={`${id}-h`}>Emailed bulletins</h2>
      <p className="muted">
        The area’s report, every week at a local time in its zone, through the mail server above — while
        Blotter is open, or from cron with <code>blotter report --send-due</code>.
      </p>
      {schedules && schedules.length > 0 ? (
        <ul className={styles.list} aria-label="Report schedules">
          {schedules.map((s) => (
            <li key={s.id} className={styles.item}>
              <span className={styles.itemTitle}>{s.areaName}</span>
              <span>
                every {WEEKDAY_NAMES[s.weekday - 1]} {s.time} ({s.zone}) ·{' '}
                {s.paper === 'a4' ? 'A4' : 'Letter'} · to {s.to?.join(', ') ?? 'the alert recipients'} · next{' '}
                {instantText(s.nextDueAt)}
                {s.lastError ? (
                  <span className={styles.failed}> · last try failed: {s.lastError}</span>
                ) : null}
              </span>
              <span className={styles.itemActions}>
                <button
                  type="button"
                  className="link-button"
                  onClick={() => void act(() => client.call('removeReportSchedule', { id: s.id }))}
                >
                  Remove
                </button>
              </span>
            </li>
          ))}
        </ul>
      ) : schedules ? (
        <p className="muted">No bulletins scheduled.</p>
      ) : null}
      <form
        className={styles.ruleForm}
        aria-label="New bulletin schedule"
        onSubmit={(e) => {
          e.preventDefault();
          void act(async () => {
            await client.call('saveReportSchedule', {
              schedule: {
                ...(await targetInput(client, { ...draft, areaId })),
                weekday: Number(draft.weekday),
                time: draft.time,
                paper: draft.paper,
                ...(to.length > 0 ? { to } : {}),
              },
            });
            setDraft(EMPTY);
          });
        }}
      >
        <ScheduleTarget
          client={client}
          id={id}
          areas={areas}
          value={{ ...draft, areaId }}
          onChange={(t) => setDraft({ ...draft, ...t })}
          onError={setError}
        />
        <label htmlFor={`${id}-day`}>Every</label>
        <select
          id={`${id}-day`}
          value={draft.weekday}
          onChange={(e) => setDraft({ ...draft, weekday: e.target.value })}
        >
          {WEEKDAY_NAMES.map((d, i) => (
            <option key={d} value={i + 1}>
              {d}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-time`}>Time (the area’s local time)</label>
        <input
          id={`${id}-time`}
          type="time"
          value={draft.time}
          onChange={(e) => setDraft({ ...draft, time: e.target.value })}
        />
        <label htmlFor={`${id}-paper`}>Paper</label>
        <select
          id={`${id}-paper`}
          value={draft.paper}
          onChange={(e) => setDraft({ ...draft, paper: e.target.value === 'a4' ? 'a4' : 'letter' })}
        >
          <option value="letter">Letter</option>
          <option value="a4">A4</option>
        </select>
        <label htmlFor={`${id}-to`}>To (optional; else the alert recipients)</label>
        <input
          id={`${id}-to`}
          type="text"
          placeholder="chief@office.example, …"
          value={draft.to}
          onChange={(e) => setDraft({ ...draft, to: e.target.value })}
        />
        <div className={styles.formActions}>
          <button type="submit" className="button" disabled={!areaId && !draft.layerId}>
            Schedule bulletin
          </button>
        </div>
      </form>
      <InlineError id={`${id}-error`} message={error} className="message-error" />
    </section>
  );
}

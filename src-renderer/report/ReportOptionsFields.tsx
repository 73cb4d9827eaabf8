/**
 * The PDF report's own fields in the Export view: title, agency, the analyst's notes, whether to
 * list the incidents, whether to add the hot spot map (Gi*), and the paper (the locale's, Letter or A4). They start from the last report's (settings `report`) and are stored again
 * when a report is created, so the next one starts from them.
 */
import { useId, useState } from 'react';
import { PaperChoice } from '../../src-shared/bulletin';
import {
  DEFAULT_REPORT_OPTIONS,
  REPORT_INCIDENT_LIST_MAX,
  ReportOptions,
} from '../../src-shared/reportOptions';
import type { Client } from '../bridge/client';
import { useCurrentEffect } from '../bridge/useCall';
import { count } from '../text/count';
import styles from './reportOptions.module.css';

export type ReportOptionsState = {
  options: ReportOptions;
  set: (patch: Partial<ReportOptions>) => void;
  /** Stores the options as the next report's starting point (before the report is started). */
  save: () => Promise<void>;
};

export function useReportOptions(client: Client): ReportOptionsState {
  const [options, setOptions] = useState<ReportOptions>(DEFAULT_REPORT_OPTIONS);
  const [touched, setTouched] = useState(false);
  useCurrentEffect(
    (current) => {
      client.call('getSettings', {}).then(
        (s) => {
          if (current() && !touched && s.report) setOptions({ ...DEFAULT_REPORT_OPTIONS, ...s.report });
        },
        () => undefined, // the fields keep their defaults
      );
    },
    [client, touched],
  );
  return {
    options,
    set: (patch) => {
      setTouched(true);
      setOptions((o) => ({ ...o, ...patch }));
    },
    save: async () => {
      const parsed = ReportOptions.safeParse(options);
      if (parsed.success) await client.call('updateSettings', { report: parsed.data });
    },
  };
}

export function ReportOptionsFields({ state, disabled }: { state: ReportOptionsState; disabled: boolean }) {
  const id = useId();
  const { options, set } = state;
  return (
    <fieldset className={styles.fields} disabled={disabled} data-testid="report-options">
      <legend>The report</legend>
      <div className="field">
        <label htmlFor={`${id}-title`}>Title</label>
        <input
          id={`${id}-title`}
          value={options.title}
          maxLength={120}
          onChange={(e) => set({ title: e.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-agency`}>Agency</label>
        <input
          id={`${id}-agency`}
          value={options.agency}
          maxLength={120}
          placeholder="Your agency’s name, printed above the title"
          onChange={(e) => set({ agency: e.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-notes`}>Analyst’s notes</label>
        <textarea
          id={`${id}-notes`}
          value={options.notes}
          maxLength={4000}
          rows={4}
          onChange={(e) => set({ notes: e.target.value })}
        />
      </div>
      <label className={styles.check}>
        <input
          type="checkbox"
          checked={options.incidentList}
          onChange={(e) => set({ incidentList: e.target.checked })}
        />{' '}
        List the incidents (newest first, up to {count(REPORT_INCIDENT_LIST_MAX)})
      </label>
      <label className={styles.check}>
        <input
          type="checkbox"
          checked={options.hotSpotMap}
          onChange={(e) => set({ hotSpotMap: e.target.checked })}
        />{' '}
        Hot spot map (Gi*)
      </label>
      <div className="field">
        <label htmlFor={`${id}-paper`}>Paper</label>
        <select
          id={`${id}-paper`}
          value={options.paper}
          onChange={(e) => set({ paper: PaperChoice.parse(e.target.value) })}
        >
          <option value="auto">This computer’s (Letter or A4 by its locale)</option>
          <option value="letter">Letter</option>
          <option value="a4">A4</option>
        </select>
      </div>
      <p className="muted small">
        The bulletin always holds the CompStat table; the analyses run on the filtered incidents with the
        Analysis view’s defaults (at least 30 incidents).
      </p>
      <p className="muted small">Kept for the next report.</p>
    </fieldset>
  );
}

/**
 * Analysis: hot spots (Getis-Ord Gi*), kernel density, near repeat (Knox), repeat locations and
 * CompStat on the shared filters' incidents, computed by the engine off the UI thread (progress,
 * cancel). The result fills the work area and is kept for the session (analysis/analysisSession.ts),
 * marked stale when the filters change; analysis/AnalysisResults.tsx draws it and its drill-downs
 * (a Gi* cell or a repeat location narrows the filters, the area kept). The form checks
 * its own fields (analysis/analysisForm.ts) and says what is wrong beside each, never through the
 * browser's validation popups; a refused run says why beside Run.
 */
import { useId, useRef, useState } from 'react';
import { analysisFieldErrors, type AnalysisFieldErrors, type AnalysisFields } from '../analysis/analysisForm';
import { AnalysisResults } from '../analysis/AnalysisResults';
import { AnalysisParamsFields, DEFAULT_PARAMS, type AnalysisParams } from '../analysis/AnalysisParams';
import { isStale } from '../analysis/analysisSession';
import { useAnalysisRun, type AnalysisCall } from '../analysis/useAnalysisRun';
import { useFilters } from '../filters/FiltersContext';
import { InlineError, invalidProps } from '../shell/InlineMessage';
import { ViewFrame } from '../shell/ViewFrame';
import { useWorkspace } from '../workspace/WorkspaceContext';
import type { DataViewProps } from './viewProps';
import styles from '../analysis/analysis.module.css';

const INTRO =
  'Statistics on the incidents the filters select: where crime is significantly concentrated, whether incidents close in space follow each other in time, places hit again and again, and this period against last year.';

const KINDS: { call: AnalysisCall; label: string }[] = [
  { call: 'analyzeHotSpots', label: 'Hot spots (Gi*)' },
  { call: 'analyzeKde', label: 'Kernel density' },
  { call: 'analyzeNearRepeat', label: 'Near repeat (Knox)' },
  { call: 'analyzeRepeatLocations', label: 'Repeat locations' },
  { call: 'analyzeCompStat', label: 'CompStat' },
];

const num = (text: string): number | undefined => {
  const n = Number(text);
  return text.trim() !== '' && Number.isFinite(n) && n > 0 ? n : undefined;
};
const list = (text: string): number[] => text.split(',').map((t) => Number(t.trim()));

export function AnalysisView(_props: DataViewProps) {
  const { client } = useWorkspace();
  const { filters, update } = useFilters();
  const { state, run, cancel } = useAnalysisRun(client);
  const [kind, setKind] = useState<AnalysisCall>(() => state.result?.call ?? 'analyzeHotSpots');
  const [params, setParams] = useState<AnalysisParams>(DEFAULT_PARAMS);
  const { grid, cellSize, band, radius, spaceBands, spaceUnit, timeBands, distance, compStatLayer } = params;
  const [errors, setErrors] = useState<AnalysisFieldErrors>({});
  const formRef = useRef<HTMLFormElement>(null);
  const id = useId();
  const fieldProps = (key: keyof AnalysisFields) => ({
    name: key,
    ...invalidProps(`${id}-${key}-error`, errors[key]),
  });
  const fieldError = (key: keyof AnalysisFields) => (
    <InlineError id={`${id}-${key}-error`} message={errors[key]} testId={`analysis-field-error-${key}`} />
  );
  /** A field edited: its old complaint goes with the old value. */
  const edited = (key: keyof AnalysisFields) =>
    setErrors((e) => {
      if (!e[key]) return e;
      const next = { ...e };
      delete next[key];
      return next;
    });

  const change = (key: keyof AnalysisFields, value: string) => {
    setParams((p) => ({ ...p, [key]: value }));
    edited(key);
  };

  const start = () => {
    const found = analysisFieldErrors(kind, { cellSize, band, radius, spaceBands, timeBands, distance });
    setErrors(found);
    const first = Object.keys(found)[0];
    if (first) {
      formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    const c = num(cellSize);
    if (kind === 'analyzeHotSpots')
      void run(kind, {
        filters,
        grid,
        ...(c ? { cellSizeM: c } : {}),
        ...(num(band) ? { distanceBandM: num(band) } : {}),
      });
    else if (kind === 'analyzeKde')
      void run(kind, {
        filters,
        ...(c ? { cellSizeM: c } : {}),
        ...(num(radius) ? { radiusM: num(radius) } : {}),
      });
    else if (kind === 'analyzeNearRepeat')
      void run(kind, { filters, spaceBands: list(spaceBands), spaceUnit, timeBandsDays: list(timeBands) });
    else if (kind === 'analyzeRepeatLocations') void run(kind, { filters, distanceM: Number(distance) || 0 });
    // CompStat: by area, or by the features of the layer chosen under "Tables by".
    else void run(kind, { filters, ...(compStatLayer ? { layerId: Number(compStatLayer) } : {}) });
  };

  const result = state.result;

  return (
    <ViewFrame title="Analysis" intro={INTRO} fill>
      <div className={styles.layout}>
        <form
          ref={formRef}
          className={`${styles.controls} app-form`}
          aria-label="Analysis settings"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            start();
          }}
        >
          <label>
            Analysis to run
            <select
              value={kind}
              onChange={(e) => {
                setKind(e.target.value as AnalysisCall);
                setErrors({});
              }}
            >
              {KINDS.map((k) => (
                <option key={k.call} value={k.call}>
                  {k.label}
                </option>
              ))}
            </select>
          </label>
          <AnalysisParamsFields
            client={client}
            kind={kind}
            params={params}
            set={(patch) => setParams((p) => ({ ...p, ...patch }))}
            change={change}
            fieldProps={fieldProps}
            fieldError={fieldError}
          />
          <button
            type="submit"
            className="button primary"
            disabled={state.running}
            aria-describedby={state.running ? `${id}-running` : undefined}
          >
            Run
          </button>
          {state.running ? (
            <span id={`${id}-running`} className="muted">
              An analysis is running: cancel it to start another.
            </span>
          ) : null}
          <InlineError
            id={`${id}-run-error`}
            message={state.error}
            className={`message-error ${styles.runError}`}
            testId="analysis-error"
          />
        </form>

        {state.running ? (
          <div className={styles.progress} data-testid="analysis-progress">
            <progress max={1} value={state.fraction} aria-label="Analysis progress" />
            <button type="button" className="button" onClick={cancel}>
              Cancel
            </button>
          </div>
        ) : null}

        {result ? (
          <AnalysisResults
            key={result.value.jobId}
            result={result}
            stale={isStale(result, filters)}
            onRerun={start}
            update={update}
          />
        ) : null}
      </div>
    </ViewFrame>
  );
}

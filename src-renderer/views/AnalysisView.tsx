/**
 * Analysis: hot spots (Getis-Ord Gi*), kernel density, near repeat (Knox), repeat locations and
 * CompStat on the shared filters' incidents, computed by the engine off the UI thread (progress,
 * cancel). The result fills the work area and is kept for the session (analysis/analysisSession.ts),
 * marked stale when the filters change; analysis/AnalysisResults.tsx draws it and its drill-downs
 * (a Gi* cell or a repeat location narrows the filters, the area kept). The form checks
 * its own fields (analysis/analysisForm.ts) and says what is wrong beside each, never through the
 * browser's validation popups; a refused run says why beside Run.
 */
import { useId, useRef, useState, type ReactNode } from 'react';
import { analysisFieldErrors, type AnalysisFieldErrors, type AnalysisFields } from '../analysis/analysisForm';
import { AnalysisResults } from '../analysis/AnalysisResults';
import { CompStatTablesBy } from '../analysis/CompStatTablesBy';
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
  const [grid, setGrid] = useState<'square' | 'hexagon'>('square');
  const [cellSize, setCellSize] = useState('');
  const [band, setBand] = useState('');
  const [radius, setRadius] = useState('');
  const [spaceBands, setSpaceBands] = useState('0,400,800');
  const [spaceUnit, setSpaceUnit] = useState<'ft' | 'm'>('ft');
  const [timeBands, setTimeBands] = useState('0,7,14');
  const [distance, setDistance] = useState('0');
  const [compStatLayer, setCompStatLayer] = useState('');
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

  const change = (key: keyof AnalysisFields, setter: (value: string) => void) => (value: string) => {
    setter(value);
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
          {kind === 'analyzeHotSpots' ? (
            <>
              <label>
                Grid
                <select value={grid} onChange={(e) => setGrid(e.target.value as 'square' | 'hexagon')}>
                  <option value="square">Square</option>
                  <option value="hexagon">Hexagon</option>
                </select>
              </label>
              <NumberField
                label="Cell size (m)"
                value={cellSize}
                placeholder="auto"
                onChange={change('cellSize', setCellSize)}
                control={fieldProps('cellSize')}
                error={fieldError('cellSize')}
              />
              <NumberField
                label="Distance band (m)"
                value={band}
                placeholder="2 cells"
                onChange={change('band', setBand)}
                control={fieldProps('band')}
                error={fieldError('band')}
              />
            </>
          ) : null}
          {kind === 'analyzeKde' ? (
            <>
              <NumberField
                label="Search radius (m)"
                value={radius}
                placeholder="auto"
                onChange={change('radius', setRadius)}
                control={fieldProps('radius')}
                error={fieldError('radius')}
              />
              <NumberField
                label="Cell size (m)"
                value={cellSize}
                placeholder="radius / 10"
                onChange={change('cellSize', setCellSize)}
                control={fieldProps('cellSize')}
                error={fieldError('cellSize')}
              />
            </>
          ) : null}
          {kind === 'analyzeNearRepeat' ? (
            <>
              <div className={styles.field}>
                <label>
                  Distance bands
                  <input
                    value={spaceBands}
                    onChange={(e) => change('spaceBands', setSpaceBands)(e.target.value)}
                    {...fieldProps('spaceBands')}
                  />
                </label>
                {fieldError('spaceBands')}
              </div>
              <label>
                Unit
                <select value={spaceUnit} onChange={(e) => setSpaceUnit(e.target.value as 'ft' | 'm')}>
                  <option value="ft">feet</option>
                  <option value="m">metres</option>
                </select>
              </label>
              <div className={styles.field}>
                <label>
                  Day bands
                  <input
                    value={timeBands}
                    onChange={(e) => change('timeBands', setTimeBands)(e.target.value)}
                    {...fieldProps('timeBands')}
                  />
                </label>
                {fieldError('timeBands')}
              </div>
            </>
          ) : null}
          {kind === 'analyzeCompStat' ? (
            <CompStatTablesBy client={client} value={compStatLayer} onChange={setCompStatLayer} />
          ) : null}
          {kind === 'analyzeRepeatLocations' ? (
            <div className={styles.field}>
              <label>
                Group within (m; 0 = same block address)
                <input
                  type="number"
                  min={0}
                  value={distance}
                  onChange={(e) => change('distance', setDistance)(e.target.value)}
                  {...fieldProps('distance')}
                />
              </label>
              {fieldError('distance')}
            </div>
          ) : null}
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

/** A parameter in metres: empty means the analysis's own default; its error stands under it. */
function NumberField(props: {
  label: string;
  value: string;
  placeholder: string;
  onChange: (value: string) => void;
  control: Record<string, unknown>;
  error: ReactNode;
}) {
  return (
    <div className={styles.field}>
      <label>
        {props.label}
        <input
          type="number"
          min={1}
          value={props.value}
          placeholder={props.placeholder}
          onChange={(e) => props.onChange(e.target.value)}
          {...props.control}
        />
      </label>
      {props.error}
    </div>
  );
}

/**
 * The Analysis form's parameters for the chosen analysis: the Gi* grid, cell size and distance band;
 * the density's search radius and cell size; Knox's distance and day bands; repeat locations'
 * grouping distance; CompStat's "Tables by". Each text field's complaint stands under it.
 */
import type { ReactNode } from 'react';
import type { Client } from '../bridge/client';
import type { AnalysisFields } from './analysisForm';
import { CompStatTablesBy } from './CompStatTablesBy';
import type { AnalysisCall } from './useAnalysisRun';
import styles from './analysis.module.css';

/** The form's values as typed (the text fields are checked by analysisForm.ts before a run). */
export type AnalysisParams = AnalysisFields & {
  grid: 'square' | 'hexagon';
  spaceUnit: 'ft' | 'm';
  /** CompStat's layer id as text; '' for one table per area. */
  compStatLayer: string;
};

export const DEFAULT_PARAMS: AnalysisParams = {
  grid: 'square',
  cellSize: '',
  band: '',
  radius: '',
  spaceBands: '0,400,800',
  spaceUnit: 'ft',
  timeBands: '0,7,14',
  distance: '0',
  compStatLayer: '',
};

type Props = {
  client: Client;
  kind: AnalysisCall;
  params: AnalysisParams;
  /** A choice that is never wrong (grid, unit, layer). */
  set: (patch: Partial<AnalysisParams>) => void;
  /** A text field edited: its old complaint goes with the old value. */
  change: (key: keyof AnalysisFields, value: string) => void;
  fieldProps: (key: keyof AnalysisFields) => Record<string, unknown>;
  fieldError: (key: keyof AnalysisFields) => ReactNode;
};

export function AnalysisParamsFields({ client, kind, params, set, change, fieldProps, fieldError }: Props) {
  return (
    <>
      {kind === 'analyzeHotSpots' ? (
        <>
          <label>
            Grid
            <select
              value={params.grid}
              onChange={(e) => set({ grid: e.target.value as 'square' | 'hexagon' })}
            >
              <option value="square">Square</option>
              <option value="hexagon">Hexagon</option>
            </select>
          </label>
          <NumberField
            label="Cell size (m)"
            value={params.cellSize}
            placeholder="auto"
            onChange={(v) => change('cellSize', v)}
            control={fieldProps('cellSize')}
            error={fieldError('cellSize')}
          />
          <NumberField
            label="Distance band (m)"
            value={params.band}
            placeholder="2 cells"
            onChange={(v) => change('band', v)}
            control={fieldProps('band')}
            error={fieldError('band')}
          />
        </>
      ) : null}
      {kind === 'analyzeKde' ? (
        <>
          <NumberField
            label="Search radius (m)"
            value={params.radius}
            placeholder="auto"
            onChange={(v) => change('radius', v)}
            control={fieldProps('radius')}
            error={fieldError('radius')}
          />
          <NumberField
            label="Cell size (m)"
            value={params.cellSize}
            placeholder="radius / 10"
            onChange={(v) => change('cellSize', v)}
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
                value={params.spaceBands}
                onChange={(e) => change('spaceBands', e.target.value)}
                {...fieldProps('spaceBands')}
              />
            </label>
            {fieldError('spaceBands')}
          </div>
          <label>
            Unit
            <select
              value={params.spaceUnit}
              onChange={(e) => set({ spaceUnit: e.target.value as 'ft' | 'm' })}
            >
              <option value="ft">feet</option>
              <option value="m">metres</option>
            </select>
          </label>
          <div className={styles.field}>
            <label>
              Day bands
              <input
                value={params.timeBands}
                onChange={(e) => change('timeBands', e.target.value)}
                {...fieldProps('timeBands')}
              />
            </label>
            {fieldError('timeBands')}
          </div>
        </>
      ) : null}
      {kind === 'analyzeCompStat' ? (
        <CompStatTablesBy
          client={client}
          value={params.compStatLayer}
          onChange={(v) => set({ compStatLayer: v })}
        />
      ) : null}
      {kind === 'analyzeRepeatLocations' ? (
        <div className={styles.field}>
          <label>
            Group within (m; 0 = same block address)
            <input
              type="number"
              min={0}
              value={params.distance}
              onChange={(e) => change('distance', e.target.value)}
              {...fieldProps('distance')}
            />
          </label>
          {fieldError('distance')}
        </div>
      ) : null}
    </>
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

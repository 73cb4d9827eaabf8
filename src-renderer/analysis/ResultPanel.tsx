/**
 * Beside an analysis result's legend (issue 26, item 5): the parameters that made it (resolved
 * values, "auto" where the analysis chose them, the period, the incidents counted), and — when the
 * filters changed since it ran — a note that it is stale, with a button to run it again. Floats
 * over the result's map; folds to its title.
 */
import { useState, type ReactNode } from 'react';
import type { AnalysisResult } from './analysisSession';
import { resultParameters } from './resultParameters';
import styles from './analysis.module.css';

export function ResultPanel({
  result,
  stale,
  onRerun,
  legend,
  hint,
  floating,
}: {
  result: AnalysisResult;
  stale: boolean;
  onRerun: () => void;
  legend?: ReactNode;
  hint?: string;
  /** Over the map (a map result), else in the flow above a table. */
  floating: boolean;
}) {
  const [open, setOpen] = useState(true);
  return (
    <aside
      className={floating ? styles.resultPanel : styles.resultPanelInline}
      aria-label="Result"
      data-testid="analysis-result-panel"
      data-stale={stale}
    >
      <button
        type="button"
        className={`link-button ${styles.resultFold}`}
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        {open ? 'Fold ▴' : 'Legend and parameters ▾'}
      </button>
      {stale ? (
        <p className={styles.stale} role="status" data-testid="analysis-stale">
          Stale: the filters changed since this ran.{' '}
          <button type="button" className="link-button" onClick={onRerun}>
            Recompute with these filters
          </button>
        </p>
      ) : null}
      <div hidden={!open}>
        {legend}
        <dl className={styles.parameters} data-testid="analysis-parameters">
          {resultParameters(result).map((p) => (
            <div key={p.label}>
              <dt>{p.label}</dt>
              <dd>{p.value}</dd>
            </div>
          ))}
        </dl>
        {hint ? <p className="muted small">{hint}</p> : null}
      </div>
    </aside>
  );
}

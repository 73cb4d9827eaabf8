/**
 * The offline streets' download as it goes — a bar while it runs, then how it ended in words
 * (basemapText.ts) — for Settings › Map's download and an area's "Extend offline map" offer, each
 * adding its own buttons below.
 */
import type { ReactNode } from 'react';
import type { BasemapProgressFields } from '../../../src-shared/basemap';
import { progressText } from './basemapText';

export type BasemapProgressProps = {
  progress: BasemapProgressFields;
  /** The bar's accessible name. */
  label: string;
  testId: string;
  children?: ReactNode;
};

export function BasemapProgress({ progress, label, testId, children }: BasemapProgressProps) {
  return (
    <div role="status" data-testid={testId} data-state={progress.state}>
      {progress.state === 'running' ? (
        <progress max={Math.max(1, progress.tilesTotal)} value={progress.tilesDone} aria-label={label} />
      ) : null}
      <p className={progress.state === 'failed' ? 'message message-error' : 'muted'}>
        {progressText(progress)}
      </p>
      {children}
    </div>
  );
}

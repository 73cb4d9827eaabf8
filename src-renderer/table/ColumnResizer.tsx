/**
 * The drag handle at a column header's right edge: drag it, or focus it and press the arrow keys
 * (Shift: larger steps), to set the column's width. A separator with its width as its value, so a
 * screen reader says how wide the column is.
 */
import type { KeyboardEvent, PointerEvent } from 'react';
import { MAX_COLUMN_PX, MIN_COLUMN_PX } from './columnWidths';
import styles from './table.module.css';

const STEP_PX = 10;
const BIG_STEP_PX = 40;

export function ColumnResizer({
  label,
  width,
  onResize,
}: {
  label: string;
  width: number;
  onResize: (width: number) => void;
}) {
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.preventDefault();
    event.stopPropagation();
    const handle = event.currentTarget;
    const startX = event.clientX;
    const startWidth = width;
    handle.setPointerCapture(event.pointerId);
    const move = (e: globalThis.PointerEvent) => onResize(startWidth + e.clientX - startX);
    const up = () => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', up);
      handle.removeEventListener('pointercancel', up);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', up);
    handle.addEventListener('pointercancel', up);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // The grid's own keys (Enter opens a row, Home/End move) are not for the handle.
    if (event.key !== 'Tab' && event.key !== 'Escape') event.stopPropagation();
    const step = event.shiftKey ? BIG_STEP_PX : STEP_PX;
    const next = event.key === 'ArrowRight' ? width + step : event.key === 'ArrowLeft' ? width - step : null;
    if (next === null) return;
    event.preventDefault();
    event.stopPropagation();
    onResize(next);
  };
  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={`Width of ${label}`}
      aria-valuenow={Math.round(width)}
      aria-valuemin={MIN_COLUMN_PX}
      aria-valuemax={MAX_COLUMN_PX}
      tabIndex={0}
      className={styles.resizer}
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
      onClick={(e) => e.stopPropagation()}
      title="Drag, or use the arrow keys, to set the width"
    />
  );
}

/**
 * "Columns": a button over the table opening a list of every column with a checkbox each (the kept
 * fields of imported files among them); a change shows or hides the column at once. Escape or the
 * button closes it, focus back on the button; focus leaving it folds it too.
 */
import { useRef, useState, type KeyboardEvent } from 'react';
import { toggleColumn, type Column } from './columns';
import styles from './table.module.css';

export function ColumnChooser({
  all,
  chosen,
  onChange,
}: {
  all: readonly Column[];
  chosen: readonly string[];
  onChange: (next: string[]) => void;
}) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    close();
  };
  return (
    <div
      className={styles.chooser}
      onKeyDown={onKeyDown}
      onBlur={(event) => {
        // Focus gone elsewhere (a click outside, Tab past the last box): the list folds.
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        className="button"
        aria-expanded={open}
        aria-controls="table-columns"
        onClick={() => setOpen(!open)}
      >
        Columns ▾
      </button>
      {open ? (
        <fieldset id="table-columns" className={styles.chooserList}>
          <legend>Columns shown</legend>
          {all.map((col) => {
            const on = chosen.includes(col.id);
            return (
              <label key={col.id}>
                <input
                  type="checkbox"
                  checked={on}
                  disabled={on && chosen.length === 1}
                  onChange={() => onChange(toggleColumn(chosen, col.id))}
                />
                {col.label}
              </label>
            );
          })}
        </fieldset>
      ) : null}
    </div>
  );
}

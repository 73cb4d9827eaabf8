/**
 * Crime types as one compact multi-select (issue 26, item 2): a button naming what is chosen opens a
 * popover with a search box and a checkbox per type with its count — the API's standard types
 * first, then the archive's other categories under "More types", each most frequent first
 * (typeOptions.ts). Nothing chosen means every type. The arrow keys move between the search box
 * and the types, Space picks. Escape, "Done" or a click outside closes it; Escape and Done put
 * focus back on the button. The chosen types stay visible as chips in the bar.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { CRIME_TYPES } from '../../src-shared/crimeTypes';
import type { Filters } from '../../src-shared/filters';
import { count } from '../text/count';
import { toggleType } from './filterModel';
import { typeColor } from './typeColors';
import { typePickerText, typeSections, type TypeOption } from './typeOptions';
import styles from './filters.module.css';

export type TypePickerProps = {
  filters: Filters;
  byType: Record<string, number> | null;
  update: (patch: Partial<Filters>) => void;
};

export function TypePicker({ filters, byType, update }: TypePickerProps) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const id = useId();
  const chosen = filters.types ?? [];
  const close = (refocus: boolean) => {
    setOpen(false);
    setQuery('');
    if (refocus) button.current?.focus();
  };
  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) {
        setOpen(false);
        setQuery('');
      }
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);
  const sections = typeSections(CRIME_TYPES, byType ?? {}, chosen, query);
  const toggle = (type: string) => update(toggleType(filters, type));
  return (
    <div
      className={styles.typePicker}
      ref={root}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !open) return;
        event.stopPropagation();
        close(true);
      }}
      onBlur={(event) => {
        // Tabbing out of the popover closes it, as a click outside does.
        if (open && !root.current?.contains(event.relatedTarget as Node | null)) close(false);
      }}
    >
      <button
        type="button"
        ref={button}
        className={styles.typePickerButton}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? `${id}-popover` : undefined}
        data-chosen={chosen.length}
        onClick={() => (open ? close(false) : setOpen(true))}
      >
        <span className={styles.filterLabel}>Types:</span> {typePickerText(chosen)}
        <span aria-hidden="true"> ▾</span>
      </button>
      {open ? (
        <div
          id={`${id}-popover`}
          className={styles.typePopover}
          role="dialog"
          aria-label="Crime types"
          onKeyDown={moveWithArrows}
        >
          <input
            type="search"
            className={styles.typeSearch}
            aria-label="Search types"
            placeholder="Search types"
            autoFocus
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
          <div className={styles.typeLists}>
            <TypeSection title="Standard types" options={sections.standard} toggle={toggle} />
            <TypeSection title="More types" options={sections.more} toggle={toggle} />
            {sections.standard.length + sections.more.length === 0 ? (
              <p className="muted" role="status">
                No type matches “{query.trim()}”.
              </p>
            ) : null}
          </div>
          <div className={styles.typeActions}>
            <button
              type="button"
              className="link-button"
              disabled={chosen.length === 0}
              onClick={() => update({ types: undefined })}
            >
              All types
            </button>
            <button type="button" className="button" onClick={() => close(true)}>
              Done
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}

/** Up and Down step through the search box and the types' checkboxes, in the order shown. */
function moveWithArrows(event: KeyboardEvent<HTMLDivElement>) {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  const stops = [...event.currentTarget.querySelectorAll<HTMLInputElement>('input')];
  const at = stops.indexOf(event.target as HTMLInputElement);
  if (at < 0) return;
  event.preventDefault();
  const next = event.key === 'ArrowDown' ? Math.min(at + 1, stops.length - 1) : Math.max(at - 1, 0);
  stops[next]?.focus();
}

function TypeSection({
  title,
  options,
  toggle,
}: {
  title: string;
  options: TypeOption[];
  toggle: (type: string) => void;
}) {
  if (options.length === 0) return null;
  return (
    <fieldset className={styles.typeSection}>
      <legend>{title}</legend>
      {options.map((option) => (
        <label key={option.type} className={styles.typeOption} data-type={option.type}>
          <input type="checkbox" checked={option.chosen} onChange={() => toggle(option.type)} />
          <span className="swatch" style={{ background: typeColor(option.type) }} aria-hidden="true" />
          <span className={styles.typeName}>{option.type}</span>
          <span className={styles.chipCount}>{count(option.count)}</span>
        </label>
      ))}
    </fieldset>
  );
}

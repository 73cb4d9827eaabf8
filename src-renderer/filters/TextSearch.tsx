/**
 * Free text over address and description (full-text, word prefixes; "quotes" for a phrase). The
 * only debounced control: the filter follows the typing after a short pause, or at once on Enter.
 */
import { useEffect, useRef, useState } from 'react';
import type { Filters } from '../../src-shared/filters';
import { textPatch } from './filterModel';
import styles from './filters.module.css';

export const TEXT_DEBOUNCE_MS = 300;

export type TextSearchProps = { text: string | undefined; update: (patch: Partial<Filters>) => void };

export function TextSearch({ text, update }: TextSearchProps) {
  const [value, setValue] = useState(text ?? '');
  const sent = useRef(text ?? '');

  // Follow changes made elsewhere (Clear all), but never overwrite what is being typed.
  useEffect(() => {
    if ((text ?? '') !== sent.current) {
      sent.current = text ?? '';
      setValue(text ?? '');
    }
  }, [text]);

  useEffect(() => {
    if (value.trim() === sent.current.trim()) return;
    const timer = setTimeout(() => {
      sent.current = value.trim();
      update(textPatch(value));
    }, TEXT_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [value, update]);

  return (
    <input
      type="search"
      className={styles.textSearch}
      aria-label="Search address and description"
      placeholder="Search address or description"
      value={value}
      maxLength={300}
      onChange={(e) => setValue(e.target.value)}
      onKeyDown={(e) => {
        if (e.key !== 'Enter') return;
        sent.current = value.trim();
        update(textPatch(value));
      }}
    />
  );
}

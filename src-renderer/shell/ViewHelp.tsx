/**
 * A view's help on demand (issue 26): its title and intro gave up their space, so a small "?" at
 * the foot of the sidebar — the same place in every view, clear of the map's own controls — shows
 * the intro in a popover beside it. A disclosure: aria-expanded on the button, focus stays there;
 * the button again, Escape (focus back on the button) or a click elsewhere closes it.
 */
import { useEffect, useRef, useState } from 'react';

export function ViewHelp({ title, intro, id }: { title: string; intro: string; id: string }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);
  return (
    <div
      className="view-help"
      ref={root}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !open) return;
        event.stopPropagation();
        setOpen(false);
        button.current?.focus();
      }}
    >
      <button
        type="button"
        ref={button}
        className="view-help-button"
        aria-label={`About the ${title} view`}
        title={`About the ${title} view`}
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        ?
      </button>
      <div id={id} className="view-help-popover" hidden={!open} data-testid="view-help">
        <strong>{title}</strong>
        <p>{intro}</p>
      </div>
    </div>
  );
}

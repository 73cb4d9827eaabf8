/** The add-area form's fields: centre and radius (for circles not drawn), and the name. */
import { useId } from 'react';
import type { AddAreaDraft, AddAreaErrors } from './addAreaModel';

export type AreaFieldsProps = {
  draft: AddAreaDraft;
  errors: AddAreaErrors;
  edit: (patch: Partial<AddAreaDraft>) => void;
};

export function AreaFields({ draft, errors, edit }: AreaFieldsProps) {
  const id = useId();
  const field = (key: 'centre' | 'radius' | 'name') => ({
    id: `${id}-${key}`,
    'aria-invalid': errors[key] ? true : undefined,
    'aria-describedby': errors[key] ? `${id}-${key}-error` : undefined,
  });
  const error = (key: 'centre' | 'radius' | 'name') =>
    errors[key] ? (
      <p id={`${id}-${key}-error`} className="field-error">
        {errors[key]}
      </p>
    ) : null;
  const wrap = (key: 'centre' | 'radius' | 'name') => `field${errors[key] ? ' field-invalid' : ''}`;
  return (
    <>
      {draft.method !== 'draw' ? (
        <>
          <div className={wrap('centre')}>
            <label htmlFor={`${id}-centre`}>Centre (latitude, longitude)</label>
            <input
              {...field('centre')}
              value={draft.centre}
              placeholder="39.7392, -104.9903"
              onChange={(e) => edit({ centre: e.target.value })}
            />
            {error('centre')}
          </div>
          <div className={wrap('radius')}>
            <label htmlFor={`${id}-radius`}>Radius (miles)</label>
            <input
              {...field('radius')}
              inputMode="decimal"
              value={draft.radius}
              onChange={(e) => edit({ radius: e.target.value })}
            />
            {error('radius')}
          </div>
        </>
      ) : null}
      <div className={wrap('name')}>
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          {...field('name')}
          value={draft.name}
          maxLength={120}
          placeholder="Downtown"
          onChange={(e) => edit({ name: e.target.value })}
        />
        {error('name')}
      </div>
    </>
  );
}

/**
 * The column mapping of another system's file, as editable fields: which column is the id, the
 * type (with a value map from the file's codes to Blotter's types or a new type), the address, the
 * date and time (one column or two, the format shown and overridable), the location (lat/lon, or
 * X/Y in a State Plane / UTM zone — those the file's X/Y fit first — or a pasted .prj; or none:
 * the rows import as unplaced and are placed from their address), the
 * description, and which other columns are kept as attributes. Each change goes up as a new draft;
 * the panel previews the file through it again.
 */
import { useEffect, useId } from 'react';
import { CRIME_TYPES } from '../../src-shared/crimeTypes';
import type { DateStyle } from '../../src-shared/importMapping';
import type { ImportInspection, ProposalCertainty } from '../../src-shared/importMappingCalls';
import { count } from '../text/count';
import { firstUnsure, usedColumns, type Draft } from './mappingDraft';
import styles from './mapping.module.css';

const DATE_STYLES: Record<DateStyle, string> = {
  auto: 'Recognise (ISO, US or Excel serial)',
  iso: 'ISO-8601 (2025-05-10 13:30)',
  us: 'US (5/10/2025 1:30 PM)',
  excel: 'Excel serial date (45787.5625)',
};
const NEW_TYPE = '\u0000new';
/** The type select's choice of one type for every row (a file of shootings). */
const CONSTANT_TYPE = '\u0000constant';
const LEVEL_WORDS: Record<ProposalCertainty['level'], string> = {
  sure: 'Proposed',
  guess: 'Not sure — check it',
  none: 'Not proposed',
};

type Props = {
  inspection: ImportInspection;
  draft: Draft;
  onChange: (draft: Draft) => void;
};

export function MappingEditor({ inspection, draft, onChange }: Props) {
  const uid = useId();
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => onChange({ ...draft, [key]: value });
  const first = inspection.sample[0] ?? {};
  const example = (column: string) =>
    column && first[column] !== undefined ? (
      <span className={styles.example}>e.g. {first[column]}</span>
    ) : null;

  // The proposal's certainty of each field, said beside it; the page opens on the first it is not sure of.
  const certainty = new Map((inspection.certainty ?? []).map((c) => [c.field, c]));
  const opensOn = firstUnsure(inspection.certainty, draft);
  useEffect(() => {
    if (opensOn === null) return;
    const control = document.getElementById(`${uid}-${opensOn}`);
    control?.focus();
    control?.scrollIntoView?.({ block: 'center' });
    // Once per inspected file: later edits move nothing.
  }, [inspection.fileId]);
  const sureness = (field: ProposalCertainty['field']) => {
    const c = certainty.get(field);
    return c ? (
      <span
        className={c.level === 'sure' ? styles.example : styles.unsure}
        data-testid={`certainty-${field}`}
        data-level={c.level}
      >
        {LEVEL_WORDS[c.level]}: {c.note}
      </span>
    ) : null;
  };

  const columnSelect = (
    field: keyof Draft,
    label: string,
    optional: string | null,
    about?: ProposalCertainty['field'],
  ) => {
    const id = `${uid}-${field}`;
    const value = draft[field] as string;
    return (
      <div className={styles.field}>
        <label htmlFor={id}>{label}</label>
        <select id={id} value={value} onChange={(e) => set(field, e.target.value as never)}>
          {optional !== null ? (
            <option value="">{optional}</option>
          ) : (
            <option value="">Choose a column…</option>
          )}
          {inspection.columns.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
        {example(value)}
        {about ? sureness(about) : null}
      </div>
    );
  };

  const codes =
    draft.typeFrom === 'column' && draft.type
      ? (inspection.values[draft.type] ?? { top: [], more: false })
      : null;
  const used = usedColumns(draft);
  const fitting = inspection.zones.filter((z) => z.fits);
  const others = inspection.zones.filter((z) => !z.fits);
  const zoneLabel = (z: (typeof inspection.zones)[number]) => `EPSG:${z.epsg} — ${z.name}`;

  return (
    <fieldset className={styles.editor} data-testid="mapping-editor">
      <legend>Columns → Blotter’s fields</legend>
      <p className="muted">
        {inspection.saved
          ? `This file has the columns of the saved mapping “${inspection.saved}”, so it is proposed.`
          : 'Proposed from the column names and their values; change what is wrong. The preview below follows every change.'}
      </p>
      <div className={styles.field}>
        <label htmlFor={`${uid}-name`}>Mapping name</label>
        <input
          id={`${uid}-name`}
          value={draft.name}
          maxLength={100}
          onChange={(e) => set('name', e.target.value)}
        />
        <span className={styles.example}>also the namespace of this system’s ids</span>
      </div>
      {columnSelect('id', 'Id', '(none: each row known by its content)', 'id')}
      <div className={styles.field}>
        <label htmlFor={`${uid}-type`}>Type (offence)</label>
        <select
          id={`${uid}-type`}
          value={draft.typeFrom === 'constant' ? CONSTANT_TYPE : draft.type}
          onChange={(e) =>
            onChange(
              e.target.value === CONSTANT_TYPE
                ? { ...draft, typeFrom: 'constant' }
                : { ...draft, typeFrom: 'column', type: e.target.value },
            )
          }
        >
          <option value="">Choose a column…</option>
          {inspection.columns.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
          <option value={CONSTANT_TYPE}>(none: one type for every row…)</option>
        </select>
        {draft.typeFrom === 'column' ? example(draft.type) : null}
        {sureness('type')}
      </div>
      {draft.typeFrom === 'constant' ? (
        <div className={styles.field}>
          <label htmlFor={`${uid}-constantType`}>Type of every row</label>
          <input
            id={`${uid}-constantType`}
            list={`${uid}-types`}
            value={draft.constantType}
            maxLength={100}
            onChange={(e) => set('constantType', e.target.value)}
          />
          <span className={styles.example}>a file of one kind of incident (shootings, arrests)</span>
          <datalist id={`${uid}-types`}>
            {CRIME_TYPES.map((t) => (
              <option key={t} value={t} />
            ))}
          </datalist>
        </div>
      ) : null}
      {codes && codes.top.length > 0 ? (
        <table className={`data-table ${styles.valueMap}`} data-testid="value-map">
          <caption>
            The file’s values of {draft.type} → Blotter’s types
            {codes.more ? ` (the ${count(codes.top.length)} most frequent in the first rows)` : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">Value</th>
              <th scope="col">Rows</th>
              <th scope="col">Type</th>
            </tr>
          </thead>
          <tbody>
            {codes.top.map(({ value, count: n }) => {
              const mapped = draft.typeMap[value] ?? '';
              const known = mapped === '' || (CRIME_TYPES as readonly string[]).includes(mapped);
              const setCode = (v: string) => set('typeMap', { ...draft.typeMap, [value]: v });
              return (
                <tr key={value}>
                  <th scope="row">{value}</th>
                  <td>{count(n)}</td>
                  <td>
                    <select
                      aria-label={`Type for ${value}`}
                      value={known ? mapped : NEW_TYPE}
                      onChange={(e) => setCode(e.target.value === NEW_TYPE ? 'New type' : e.target.value)}
                    >
                      <option value="">Keep “{value}” as the type</option>
                      {CRIME_TYPES.map((t) => (
                        <option key={t} value={t}>
                          {t}
                        </option>
                      ))}
                      <option value={NEW_TYPE}>A new type…</option>
                    </select>
                    {!known ? (
                      <input
                        aria-label={`New type for ${value}`}
                        value={mapped}
                        maxLength={100}
                        onChange={(e) => setCode(e.target.value)}
                      />
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
      {columnSelect('address', 'Address', '(none)', 'address')}
      {columnSelect('block', 'Block or house number', '(none: in the address)')}
      {columnSelect('date', 'Date (and time)', null, 'date')}
      {columnSelect('time', 'Time', '(none: in the date column)')}
      <div className={styles.field}>
        <label htmlFor={`${uid}-dateStyle`}>Date format</label>
        <select
          id={`${uid}-dateStyle`}
          value={draft.dateStyle}
          onChange={(e) => set('dateStyle', e.target.value as DateStyle)}
        >
          {(Object.keys(DATE_STYLES) as DateStyle[]).map((s) => (
            <option key={s} value={s}>
              {DATE_STYLES[s]}
            </option>
          ))}
        </select>
        <span className={styles.example}>times without an offset are local to each incident’s place</span>
      </div>
      <fieldset className={styles.location}>
        <legend>Location</legend>
        {sureness('location')}
        <label>
          <input
            type="radio"
            name={`${uid}-loc`}
            checked={draft.location === 'latlon'}
            onChange={() => set('location', 'latlon')}
          />{' '}
          Latitude and longitude (degrees)
        </label>
        <label>
          <input
            type="radio"
            name={`${uid}-loc`}
            checked={draft.location === 'xy'}
            onChange={() => set('location', 'xy')}
          />{' '}
          X and Y in a projected coordinate system
        </label>
        <label>
          <input
            type="radio"
            id={`${uid}-location`}
            name={`${uid}-loc`}
            checked={draft.location === 'none'}
            onChange={() => set('location', 'none')}
          />{' '}
          No coordinates: the rows import as unplaced, to be placed offline
        </label>
        {draft.location === 'latlon' ? (
          <>
            {columnSelect('lat', 'Latitude', null)}
            {columnSelect('lon', 'Longitude', null)}
          </>
        ) : draft.location === 'none' ? null : (
          <>
            {columnSelect('x', 'X (easting)', null)}
            {columnSelect('y', 'Y (northing)', null)}
            <div className={styles.field}>
              <label htmlFor={`${uid}-system`}>Coordinate system</label>
              <select
                id={`${uid}-system`}
                value={draft.system}
                onChange={(e) => set('system', e.target.value)}
              >
                <option value="">Choose…</option>
                {fitting.length > 0 ? (
                  <optgroup label="Zones this file’s X/Y fall in">
                    {fitting.map((z) => (
                      <option key={z.epsg} value={String(z.epsg)}>
                        {zoneLabel(z)}
                      </option>
                    ))}
                  </optgroup>
                ) : null}
                <optgroup label="Other State Plane and UTM zones">
                  {others.map((z) => (
                    <option key={z.epsg} value={String(z.epsg)}>
                      {zoneLabel(z)}
                    </option>
                  ))}
                </optgroup>
                <option value="wkt">Another system: paste its .prj (WKT)…</option>
              </select>
            </div>
            {draft.system === 'wkt' ? (
              <div className={styles.field}>
                <label htmlFor={`${uid}-wkt`}>.prj / WKT</label>
                <textarea
                  id={`${uid}-wkt`}
                  rows={4}
                  value={draft.wkt}
                  maxLength={20_000}
                  onChange={(e) => set('wkt', e.target.value)}
                />
              </div>
            ) : null}
          </>
        )}
      </fieldset>
      {columnSelect('description', 'Description', '(none)')}
      <fieldset className={styles.keep}>
        <legend>Other columns kept as attributes</legend>
        {inspection.columns
          .filter((c) => !used.has(c))
          .map((c) => (
            <label key={c}>
              <input
                type="checkbox"
                checked={draft.keep.includes(c)}
                onChange={(e) =>
                  set('keep', e.target.checked ? [...draft.keep, c] : draft.keep.filter((k) => k !== c))
                }
              />{' '}
              {c} {example(c)}
            </label>
          ))}
      </fieldset>
    </fieldset>
  );
}

/**
 * Finds a city or ZIP code in the bundled gazetteer (offline) and hands back its centre: the
 * circle's centre, or (`moveOnly`, while drawing) where to move the map.
 */
import { useId, useState } from 'react';
import { useCurrentEffect } from '../bridge/useCall';
import { searchPlaces, type Place } from '../gazetteer';
import styles from './areas.module.css';

export function PlaceSearch({
  onPick,
  moveOnly = false,
}: {
  onPick: (place: Place) => void;
  moveOnly?: boolean;
}) {
  const id = useId();
  const [query, setQuery] = useState('');
  const [places, setPlaces] = useState<Place[]>([]);
  const [searched, setSearched] = useState('');

  useCurrentEffect(
    (current) => {
      const timer = setTimeout(() => {
        searchPlaces(query, 8).then(
          (found) => {
            if (!current()) return;
            setPlaces(found);
            setSearched(query);
          },
          () => undefined,
        );
      }, 150);
      return () => clearTimeout(timer);
    },
    [query],
  );

  return (
    <div className="field place-search">
      <label htmlFor={id}>{moveOnly ? 'Go to a city or ZIP code' : 'City or ZIP code'}</label>
      <input
        id={id}
        type="search"
        value={query}
        placeholder="Denver, CO or 80202"
        autoComplete="off"
        onChange={(e) => setQuery(e.target.value)}
      />
      {places.length > 0 ? (
        <ul className={styles.placeResults} aria-label="Places found">
          {places.map((place) => (
            <li key={`${place.label}|${place.lat}|${place.lon}`}>
              <button type="button" className="link-button" onClick={() => onPick(place)}>
                {place.label}
              </button>
            </li>
          ))}
        </ul>
      ) : searched.trim() && searched === query ? (
        <p className="field-hint">No city or ZIP code matches “{searched}”.</p>
      ) : (
        <p className="field-hint">From the gazetteer bundled with Blotter; works offline.</p>
      )}
    </div>
  );
}

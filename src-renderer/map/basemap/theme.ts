/** Basemap and mark colours for light and dark schemes (following prefers-color-scheme). */
import type { MarkStyle } from '../drawClusters';

export type MapTheme = {
  /** The vector basemap's protomaps flavour. */
  flavor: 'light' | 'dark';
  water: string;
  land: string;
  coast: string;
  state: string;
  county: string;
  label: string;
  labelHalo: string;
  marks: MarkStyle;
  /** The ring around the selected incident (the app's accent). */
  selection: string;
};

const LIGHT: MapTheme = {
  flavor: 'light',
  water: '#c9dceb',
  land: '#f4f1ea',
  coast: '#8797a8',
  state: '#8f9aa7',
  county: '#c9c4b8',
  label: '#39414b',
  labelHalo: 'rgba(255,255,255,0.9)',
  marks: { surface: 'rgba(255,255,255,0.94)', text: '#1b1f24', halo: '#ffffff' },
  selection: '#1f5fbf',
};

const DARK: MapTheme = {
  flavor: 'dark',
  water: '#0f1a24',
  land: '#1f242b',
  coast: '#4f5f70',
  state: '#5d6a78',
  county: '#343b44',
  label: '#c9d1dc',
  labelHalo: 'rgba(15,18,23,0.9)',
  marks: { surface: 'rgba(28,32,39,0.94)', text: '#e4e8ee', halo: '#14171c' },
  selection: '#5b9cf5',
};

export function mapTheme(): MapTheme {
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? DARK : LIGHT;
}

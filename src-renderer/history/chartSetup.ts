/**
 * chart.js, with only the pieces Blotter draws registered (bar charts on a category × linear grid,
 * legend, tooltip), and the colours of the current theme read from the CSS variables of the element
 * the chart sits in (so the app's light/dark theme and the printed report's own palette both apply).
 */
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';
import { useSyncExternalStore } from 'react';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

export { Chart };

export type ThemeColours = { text: string; muted: string; grid: string; font: string };

export function themeColours(element: Element): ThemeColours {
  const style = getComputedStyle(element);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    text: read('--text', '#1b1f24'),
    muted: read('--muted', '#5a6472'),
    grid: read('--border', '#d9dee5'),
    font: read('--font', 'system-ui, sans-serif'),
  };
}

const DARK = '(prefers-color-scheme: dark)';
const subscribe = (onChange: () => void): (() => void) => {
  const query = window.matchMedia(DARK);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};

/** 'dark' or 'light', following the system setting live (charts redraw in the new colours). */
export function useColorScheme(): 'dark' | 'light' {
  return useSyncExternalStore(
    subscribe,
    () => (window.matchMedia(DARK).matches ? 'dark' : 'light'),
    () => 'light',
  );
}

/** Small line icons for the navigation, drawn inline so the app needs no icon font or network. */
import type { ReactElement } from 'react';
import type { ViewId } from '../app/routes';

const PATHS: Record<ViewId, ReactElement> = {
  map: (
    <>
      <path d="M9 4 3 6v14l6-2 6 2 6-2V4l-6 2-6-2Z" />
      <path d="M9 4v14M15 6v14" />
    </>
  ),
  table: (
    <>
      <rect x="3" y="4" width="18" height="16" rx="2" />
      <path d="M3 9h18M3 14h18M9 9v11" />
    </>
  ),
  history: (
    <>
      <path d="M4 20V10M10 20V4M16 20v-7M22 20H2" />
    </>
  ),
  analysis: (
    <>
      <rect x="3" y="3" width="6" height="6" />
      <rect x="9" y="9" width="6" height="6" />
      <rect x="15" y="15" width="6" height="6" />
      <path d="M3 15h6v6H3zM15 3h6v6h-6z" strokeDasharray="2 2" />
    </>
  ),
  export: (
    <>
      <path d="M12 3v12M7 10l5 5 5-5" />
      <path d="M4 17v3h16v-3" />
    </>
  ),
  areas: (
    <>
      <circle cx="12" cy="12" r="8" strokeDasharray="3 3" />
      <circle cx="12" cy="12" r="2" />
    </>
  ),
  alerts: (
    <>
      <path d="M6 16V11a6 6 0 0 1 12 0v5l2 2H4l2-2Z" />
      <path d="M10 20a2 2 0 0 0 4 0" />
    </>
  ),
  settings: (
    <>
      <path d="M4 7h10M18 7h2M4 17h4M12 17h8" />
      <circle cx="16" cy="7" r="2" />
      <circle cx="10" cy="17" r="2" />
    </>
  ),
};

export function ViewIcon({ view }: { view: ViewId }) {
  return (
    <svg
      className="icon"
      viewBox="0 0 24 24"
      width="18"
      height="18"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {PATHS[view]}
    </svg>
  );
}

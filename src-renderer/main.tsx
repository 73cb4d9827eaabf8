// Global styles first, so each feature's CSS module comes after them in the cascade.
import './styles/app.css';
import './styles/controls.css';
import './styles/tables.css';
import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { paperCss, reportRouteOf } from '../src-shared/reportRoute';
import { App } from './App';
import { getBridge } from './bridge/getBridge';

// `#/report?job=ID[&paper=a4]` is the printable report a host prints for a PDF export (src-renderer/report).
const reportRoute = reportRouteOf(window.location.hash);

// The report page (and its charts) is its own chunk: a launch of the app never loads it. Its
// sheet is set after the chunk's styles arrive, so the route's paper wins over their Letter.
const ReportPage = lazy(() =>
  import('./report/ReportPage').then((m) => {
    const sheet = document.createElement('style');
    sheet.textContent = paperCss(reportRoute?.paper ?? 'letter');
    document.head.append(sheet);
    return { default: m.ReportPage };
  }),
);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    {reportRoute ? (
      <Suspense fallback={null}>
        <ReportPage api={getBridge()} jobId={reportRoute.job} />
      </Suspense>
    ) : (
      <App api={getBridge()} />
    )}
  </StrictMode>,
);

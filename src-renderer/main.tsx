// Global styles first, so each feature's CSS module comes after them in the cascade.
import './styles/app.css';
import './styles/controls.css';
import './styles/tables.css';
import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { reportJobOf } from '../src-shared/reportRoute';
import { App } from './App';
import { getBridge } from './bridge/getBridge';

// The report page (and its charts) is its own chunk: a launch of the app never loads it.
const ReportPage = lazy(() => import('./report/ReportPage').then((m) => ({ default: m.ReportPage })));

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// `#/report?job=ID` is the printable report a host prints for a PDF export (src-renderer/report).
const reportJob = reportJobOf(window.location.hash);

createRoot(root).render(
  <StrictMode>
    {reportJob ? (
      <Suspense fallback={null}>
        <ReportPage api={getBridge()} jobId={reportJob} />
      </Suspense>
    ) : (
      <App api={getBridge()} />
    )}
  </StrictMode>,
);

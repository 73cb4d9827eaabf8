/**
 * Readiness flags on <body> for tests and tools: data-app-ready="true" once the first settings and
 * key status have loaded (e2e waits on it, never on sleeps); data-app-error while the load failed.
 */
import { useEffect } from 'react';

export function useBodyFlags(ready: boolean, loadError: string | null): void {
  useEffect(() => {
    if (ready) document.body.dataset.appReady = 'true';
  }, [ready]);
  useEffect(() => {
    if (loadError) document.body.dataset.appError = loadError;
    else delete document.body.dataset.appError;
  }, [loadError]);
}

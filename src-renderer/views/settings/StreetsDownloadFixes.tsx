/**
 * What the offline streets' download offers while it runs or after it failed, the same in Settings
 * and on an area's card: "Cancel download" while running, "Start over with the new version" when the
 * source changed under an unfinished download.
 */
import type { StreetsDownload } from './useStreetsDownload';

export function StreetsDownloadFixes({ flow }: { flow: StreetsDownload }) {
  const { progress, busy } = flow;
  return (
    <>
      {progress?.state === 'running' ? (
        <button type="button" className="button" onClick={flow.cancel}>
          Cancel download
        </button>
      ) : null}
      {progress?.state === 'failed' && progress.problem === 'source_changed' ? (
        <button type="button" className="button" disabled={busy} onClick={() => void flow.start(true)}>
          Start over with the new version
        </button>
      ) : null}
    </>
  );
}

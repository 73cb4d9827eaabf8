/** Shown before the first load completes: a quiet "loading", or why it failed and a way to retry. */
export function StartupScreen({ error, onRetry }: { error: string | null; onRetry: () => void }) {
  if (!error) {
    return (
      <div className="startup" role="status">
        Loading Blotter…
      </div>
    );
  }
  return (
    <div className="startup" role="alert">
      <h1>Blotter could not start</h1>
      <p>{error}</p>
      <button type="button" className="button primary" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}

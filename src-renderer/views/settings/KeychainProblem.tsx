/** Shown instead of key entry when no OS keychain is reachable: the problem, the fix, a re-check. */
export type KeychainProblemProps = { problem: string; fix: string; checking: boolean; onRecheck: () => void };

export function KeychainProblem({ problem, fix, checking, onRecheck }: KeychainProblemProps) {
  return (
    <div className="callout callout-danger" role="alert">
      <h3>No keychain available</h3>
      <p>{problem}</p>
      <p>
        <strong>How to fix it: </strong>
        {fix}
      </p>
      <p className="muted">
        Blotter keeps the API key only in the system keychain, never in a file, so key entry stays off until a
        keychain can be reached.
      </p>
      <button type="button" className="button" onClick={onRecheck} disabled={checking}>
        {checking ? 'Checking…' : 'Check again'}
      </button>
    </div>
  );
}

/**
 * When the welcome screen shows, and what the connection test's failures are called. Pure, so the
 * rules are tested without a DOM.
 *
 * The welcome greets a first launch: no API key, no areas, not the demo. It shows on the landing
 * address (no view in the URL, or #/welcome), so a link or a reload that names a view goes there;
 * once shown it stays until the user leaves it (a connection test stores the key, which must not
 * make the form vanish under the user's hands).
 */
import type { ErrorCode } from '../../src-shared/contract';
import type { DemoStatus } from '../../src-shared/firstRun';
import type { KeyStatus } from '../../src-shared/secrets';

export const WELCOME_HASH = '#/welcome';

export type FirstRunFacts = {
  keyStatus: KeyStatus;
  /** Areas in this data folder. */
  areaCount: number;
  demo: DemoStatus;
};

/** A first launch: nothing set up yet, and not the demo. */
export function isFirstRun({ keyStatus, areaCount, demo }: FirstRunFacts): boolean {
  return !demo.active && !keyStatus.keySet && areaCount === 0;
}

/** The address a launch opens on: no view named (the welcome's own address counts too). */
export function isLanding(hash: string): boolean {
  return hash === '' || hash === '#' || hash === '#/' || hash === WELCOME_HASH;
}

/** Whether to open the welcome now: a first run, opened on the landing address, not skipped. */
export function shouldWelcome(facts: FirstRunFacts, hash: string, skipped: boolean): boolean {
  return !skipped && isFirstRun(facts) && isLanding(hash);
}

/** A heading for each way the connection test can fail; the engine's message says the rest. */
export function failureTitle(code: ErrorCode): string {
  switch (code) {
    case 'unauthorized':
      return 'The key was rejected (401)';
    case 'ip_not_allowed':
      return "This computer's IP address is not allowed (403)";
    case 'offline':
      return 'Could not reach the API';
    case 'rate_limited':
      return 'Rate limit reached (429)';
    case 'bad_response':
      return "That address doesn't answer like the API";
    case 'server_error':
      return 'The API had a problem';
    case 'keychain_unavailable':
      return 'No keychain available for the key';
    case 'no_api_key':
      return 'No API key yet';
    case 'bad_input':
      return 'Check the values';
    default:
      return 'The test did not complete';
  }
}

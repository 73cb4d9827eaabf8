/** What a command needs from the process, replaceable in tests. */
import { forTerminal } from './terminalText';

export type Io = {
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  /** A line (or lines) of text for a person: made inert for a terminal (terminalText.ts). */
  out(text: string): void;
  err(text: string): void;
};

/** The one way the CLI prints text: every line goes through `forTerminal`. */
export const processIo: Io = {
  argv: process.argv.slice(2),
  env: process.env,
  out: (t) => process.stdout.write(forTerminal(t)),
  err: (t) => process.stderr.write(forTerminal(t)),
};

/** Exit codes, documented in README.md (and DESIGN.md's rules). */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  unauthorized: 3,
  ipNotAllowed: 4,
  incomplete: 5,
  noKey: 6,
  alreadySyncing: 7,
  /** Office mode: the office PostgreSQL database cannot be reached (or refused the login). */
  officeUnreachable: 8,
  interrupted: 130,
} as const;

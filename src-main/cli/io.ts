/** What a command needs from the process, replaceable in tests. */
export type Io = {
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  out(text: string): void;
  err(text: string): void;
};

export const processIo: Io = {
  argv: process.argv.slice(2),
  env: process.env,
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
};

/** Exit codes, documented in README.md. */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  unauthorized: 3,
  ipNotAllowed: 4,
  incomplete: 5,
  interrupted: 130,
} as const;

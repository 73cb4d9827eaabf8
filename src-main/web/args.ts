/**
 * Command line of the web host: `--data-dir DIR` (read by engine/dataDir.ts, like every host),
 * `--port N` (0, the default, picks a free port; the URL printed at start names it) and `--demo`
 * (start in demo mode: synthetic data from the built-in simulator, in `<data folder>-demo`).
 */

export const USAGE =
  'usage: npm run web [-- --data-dir DIR] [--port N] [--demo]\n' +
  '  --data-dir DIR  where Blotter keeps its files (default: BLOTTER_DATA_DIR, else the app-data folder)\n' +
  '  --port N        the port on 127.0.0.1 (default 0: a free port, shown in the printed URL)\n' +
  '  --demo          explore synthetic demo data from the built-in simulator (kept in DIR-demo)';

export class UsageError extends Error {
  override name = 'UsageError';
}

export interface WebArgs {
  port: number;
  help: boolean;
  demo: boolean;
}

export function parseWebArgs(argv: readonly string[]): WebArgs {
  const args: WebArgs = { port: 0, help: false, demo: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? splitOnce(arg) : [arg, undefined];
    const value = (): string => {
      if (inline !== undefined) return inline;
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new UsageError(`${flag} needs a value`);
      i++;
      return next;
    };
    if (flag === '--help' || flag === '-h') args.help = true;
    else if (flag === '--port') args.port = portOf(value());
    else if (flag === '--demo') {
      if (inline !== undefined) throw new UsageError('--demo takes no value');
      args.demo = true;
    } else if (flag === '--data-dir') value();
    else throw new UsageError(`unknown option ${arg}`);
  }
  return args;
}

function splitOnce(arg: string): [string, string] {
  const eq = arg.indexOf('=');
  return [arg.slice(0, eq), arg.slice(eq + 1)];
}

function portOf(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65_535) throw new UsageError(`--port needs a number from 0 to 65535`);
  return port;
}

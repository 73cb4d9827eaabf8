/**
 * Reads the OS keychain through `secret-tool` (libsecret), the way a user would check it. The
 * engine stores the key under service "Blotter", account "api-key:<profileId>".
 */
import { spawnSync } from 'node:child_process';

export const SERVICE = 'Blotter';

function secretTool(args: string[]): { ok: boolean; stdout: string; stderr: string } {
  const run = spawnSync('secret-tool', args, { encoding: 'utf8', timeout: 15_000 });
  if (run.error) throw new Error(`secret-tool could not run: ${run.error.message}`);
  return { ok: run.status === 0, stdout: run.stdout, stderr: run.stderr };
}

/** The account attribute of every item of the service (secret-tool prints attributes on stderr). */
export function accountsOf(service = SERVICE): string[] {
  const { stdout, stderr } = secretTool(['search', '--all', 'service', service]);
  const accounts = [...`${stdout}\n${stderr}`.matchAll(/^attribute\.account = (.*)$/gm)].map(
    (m) => m[1] ?? '',
  );
  return [...new Set(accounts.filter(Boolean))];
}

/** `secret-tool lookup service S account A`: the stored secret, or null when there is none. */
export function lookup(account: string, service = SERVICE): string | null {
  const { ok, stdout } = secretTool(['lookup', 'service', service, 'account', account]);
  return ok ? stdout.replace(/\n$/, '') : null;
}

/** The account under which the keychain holds exactly this secret, or null. */
export function accountHolding(secret: string, service = SERVICE): string | null {
  return accountsOf(service).find((account) => lookup(account, service) === secret) ?? null;
}

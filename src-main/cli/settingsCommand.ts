/**
 * `settings get [KEY]` and `settings set KEY VALUE`: the data folder's settings through the app's
 * calls (getSettings, updateSettings, getKeyStatus, setApiKey). Keys: base-url, plan, rate,
 * window-days, api-key. The API key is never printed (get says whether one is stored) and is read
 * only from standard input (`settings set api-key -`): a key in argv would sit in the shell's
 * history and in every process listing, so it is refused without being repeated.
 */
import type { CallInput, CallOutput } from '../../src-shared/contract';
import { one, parseBaseUrl, parsePlan, parsePositiveInt, UsageError, type Parsed } from './args';
import { EXIT, type Io } from './io';
import { withSession, type Session } from './session';

export const SETTINGS_FLAGS = { values: ['data-dir'], booleans: ['help'], words: 3 };

const KEYS = ['base-url', 'plan', 'rate', 'window-days', 'api-key'] as const;
type Key = (typeof KEYS)[number];

const isKey = (k: string | undefined): k is Key => KEYS.includes(k as Key);

export async function settingsCommand(p: Parsed, io: Io): Promise<number> {
  const [action, key, value] = p.words;
  if (key !== undefined && !isKey(key))
    throw new UsageError(`Unknown setting "${key}". Settings: ${KEYS.join(', ')}.`);
  if (action === 'get') {
    if (value !== undefined) throw new UsageError(`Unexpected argument after ${key}.`);
    return withSession(io, one(p, 'data-dir'), async (s) => {
      const shown = await readAll(s, key === 'api-key' || key === undefined, io);
      if (key !== undefined) io.out(`${shown[key]}\n`);
      else for (const k of KEYS) io.out(`${k} = ${shown[k]}\n`);
      return EXIT.ok;
    });
  }
  if (action === 'set') {
    if (key === undefined) throw new UsageError(`Say which setting: ${KEYS.join(', ')}.`);
    if (value === undefined) throw new UsageError(`Give the value: blotter settings set ${key} VALUE.`);
    if (key === 'api-key') {
      if (value !== '-')
        throw new UsageError(
          'The API key is read from standard input only, never from the command line: blotter settings set api-key - < FILE',
        );
      const apiKey = (await readStdin()).trim();
      if (apiKey === '') throw new UsageError('No API key on standard input.');
      return withSession(io, one(p, 'data-dir'), async (s) => {
        await s.call('setApiKey', { key: apiKey });
        io.out('api-key = stored in the keychain\n');
        return EXIT.ok;
      });
    }
    const patch = patchOf(key, value);
    return withSession(io, one(p, 'data-dir'), async (s) => {
      await s.call('updateSettings', patch);
      // Typing the address is the CLI's confirmation that a stored key may go there.
      if (patch.baseUrl) await s.call('confirmBaseUrl', { baseUrl: patch.baseUrl });
      io.out(`${key} = ${(await readAll(s, false, io))[key]}\n`);
      return EXIT.ok;
    });
  }
  throw new UsageError('Say what to do: settings get [KEY], or settings set KEY VALUE.');
}

function patchOf(key: Exclude<Key, 'api-key'>, value: string): CallInput<'updateSettings'> {
  switch (key) {
    case 'base-url':
      return { baseUrl: parseBaseUrl(value) };
    case 'plan':
      return { plan: parsePlan(value) };
    case 'rate':
      return { ratePerMinute: parsePositiveInt('rate', value, 100_000) };
    case 'window-days':
      return { windowDays: parsePositiveInt('window-days', value, 3650) };
  }
}

async function readAll(s: Session, withKey: boolean, io: Io): Promise<Record<Key, string>> {
  const v: CallOutput<'getSettings'> = await s.call('getSettings', {});
  const fromEnv = Boolean(io.env.BLOTTER_API_KEY?.trim());
  const key = withKey && !fromEnv ? await s.call('getKeyStatus', {}) : null;
  const enterprise = v.plan === 'enterprise';
  return {
    'base-url': v.baseUrl ?? '(not set)',
    plan: v.plan,
    rate: `${v.effective.ratePerMinute}${enterprise || v.ratePerMinute === null ? '' : ' (the plan’s; rate applies to enterprise)'}`,
    'window-days': `${v.effective.windowDays}${enterprise || v.windowDays === null ? '' : ' (the plan’s; window-days applies to enterprise)'}`,
    'api-key': fromEnv
      ? 'from BLOTTER_API_KEY (not stored)'
      : key === null
        ? ''
        : key.keySet
          ? 'stored in the keychain'
          : key.keychain.available
            ? 'not set'
            : `keychain unavailable: ${key.keychain.problem}`,
  };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    if (chunks.reduce((n, c) => n + c.length, 0) > 4096)
      throw new UsageError('Standard input is too long for an API key.');
  }
  return Buffer.concat(chunks).toString('utf8');
}

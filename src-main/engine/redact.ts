/**
 * Removes secrets from text before it reaches a log line, the request log or an error message:
 * `key=…` query values, `Bearer …` tokens, JSON `"key": "…"` fields, and every secret value
 * registered with `registerSecret` (plain and URL-encoded). Module state: one registry per thread.
 */
export const REDACTED = 'REDACTED';

/** Values shorter than this are not registered: redacting them would shred ordinary text. */
const MIN_SECRET_LENGTH = 4;

const PATTERNS: ReadonlyArray<[RegExp, string]> = [
  [/(\b(?:api[_-]?)?key=)[^&\s#"'<>]+/gi, `$1${REDACTED}`],
  [/(\bBearer\s+)[^\s"',;]+/gi, `$1${REDACTED}`],
  [/("(?:api_?)?key"\s*:\s*")(?:[^"\\]|\\.)*"/gi, `$1${REDACTED}"`],
];

const secrets = new Set<string>();
/** Registered secrets and their URL-encoded forms, longest first (so no prefix survives). */
let variants: string[] = [];

export function registerSecret(value: string): void {
  if (value.length < MIN_SECRET_LENGTH || secrets.has(value)) return;
  secrets.add(value);
  rebuild();
}

export function unregisterSecret(value: string): void {
  if (secrets.delete(value)) rebuild();
}

export function redact(text: string): string {
  let out = text;
  for (const secret of variants) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

function rebuild(): void {
  const all = new Set<string>();
  for (const secret of secrets) {
    all.add(secret);
    all.add(encodeURIComponent(secret));
    all.add(JSON.stringify(secret).slice(1, -1));
  }
  variants = [...all].sort((a, b) => b.length - a.length);
}

/** Keys: validation of a keys file (a JSON array of SimKey) and of keys passed in-process. */
import { z } from 'zod';
import { PlanId } from '../src-shared/plans';
import type { SimKey } from './http/access';

const SimKeySchema = z
  .object({
    key: z.string().min(1).regex(/^\S+$/, 'a key may not contain whitespace'),
    plan: PlanId,
    ips: z.array(z.string().min(1)).min(1, 'every key needs at least one static IP'),
    ratePerMinute: z.number().int().positive().optional(),
    windowDays: z.number().positive().optional(),
  })
  .strict();

const KeysSchema = z.array(SimKeySchema).min(1, 'at least one key is needed');

/** Validates keys; throws an Error naming the problem. */
export function validateKeys(input: unknown): SimKey[] {
  const parsed = KeysSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `invalid keys: ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'unknown'}`,
    );
  }
  const seen = new Set<string>();
  for (const k of parsed.data) {
    if (seen.has(k.key)) throw new Error('invalid keys: the same key appears twice');
    seen.add(k.key);
  }
  return parsed.data;
}

export function parseKeysFile(text: string): SimKey[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`keys file is not JSON: ${(e as Error).message}`);
  }
  return validateKeys(json);
}

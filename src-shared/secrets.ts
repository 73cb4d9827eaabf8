/** What the renderer may know about the API key: whether one is set, never its value. */
import { z } from 'zod';

export const KeyStatus = z.object({
  keySet: z.boolean(),
  keychain: z.discriminatedUnion('available', [
    z.object({ available: z.literal(true), backend: z.string() }),
    z.object({
      available: z.literal(false),
      /** What went wrong, in plain words. */
      problem: z.string(),
      /** How to fix it on this platform. */
      fix: z.string(),
    }),
  ]),
});
export type KeyStatus = z.infer<typeof KeyStatus>;

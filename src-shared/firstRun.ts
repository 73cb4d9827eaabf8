/**
 * First run: the connection test of the welcome screen ("Use my API key") and demo mode ("Explore
 * with demo data"). Pure zod; the engine runs the test (handlers/connection.ts), the hosts run the
 * demo (src-main/demo).
 */
import { z } from 'zod';
import { SettingsPatch } from './settings';

/** An API key as typed: printable, no spaces. The same rule for setApiKey and testConnection. */
export const ApiKeyText = z
  .string()
  .trim()
  .min(4, 'The API key is too short.')
  .max(512, 'The API key is too long.')
  .regex(/^[\x21-\x7e]+$/, 'The API key may contain only printable characters without spaces.');

/**
 * Test-then-store: one cheap request checks the whole chain with the fields given (and the key, when
 * given); they are saved (settings in the data folder, the key in the keychain) when the API accepted
 * the key (200) or accepted it but not this computer's IP (403) — or, with `saveAnyway`, whatever the
 * test said. The key is never sent back.
 */
export const TestConnectionInput = SettingsPatch.pick({
  baseUrl: true,
  plan: true,
  ratePerMinute: true,
  windowDays: true,
})
  .extend({ key: ApiKeyText.optional(), saveAnyway: z.boolean().optional() })
  .strict();

export const TestConnectionResult = z.object({
  /** Incidents the test search returned (it asks for at most one). */
  incidents: z.number().int(),
  /** What worked, in plain words. */
  message: z.string(),
  /** The host that answered, for the message. */
  host: z.string(),
  /** How long the request took. */
  ms: z.number(),
});
export type TestConnectionResult = z.infer<typeof TestConnectionResult>;

/** Demo mode: synthetic incidents from Blotter's built-in simulator, in a data folder of their own. */
export const DemoStatus = z.object({
  /** This data folder holds synthetic demo data (label everything). */
  active: z.boolean(),
  /** Whether this host can start the demo (the desktop app and the web host can; the CLI cannot). */
  available: z.boolean(),
  /** The demo's own data folder (where it is, or would be created). */
  dataDir: z.string().nullable(),
  /** The simulated city the demo area covers. */
  city: z.string().nullable(),
  /** The demo area in the demo folder, once created. */
  areaId: z.number().int().nullable(),
  /** Where the synthetic demo key is kept: the keychain, or (no keychain reachable) only in memory. */
  keyStorage: z.enum(['keychain', 'memory']).nullable(),
});
export type DemoStatus = z.infer<typeof DemoStatus>;

/** Words every demo label uses, so screens and tests agree. */
export const DEMO_LABEL = 'Synthetic demo data';

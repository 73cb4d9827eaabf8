/**
 * The live surface's bodies, as zod schemas. Extra fields are ignored (the service may add some);
 * every field Blotter stores must be present and of the right type, or the whole response is a
 * typed failure that writes nothing.
 */
import { z } from 'zod';
import { parseLegacyDate } from '../time/legacyDate';

export const ApiIncident = z.object({
  type: z.string().trim().min(1).max(100),
  address: z.string().max(500),
  lat: z.number().min(-90).max(90),
  lon: z.number().min(-180).max(180),
  cdid: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  link: z.string().max(2000),
  date: z
    .string()
    .refine((d) => parseLegacyDate(d) !== null, 'date is not in the MM/DD/YY HH:MM AM/PM format'),
});
export type ApiIncident = z.infer<typeof ApiIncident>;

export const SearchBody = z.object({ crimes: z.array(ApiIncident).max(10_000) });

export const DetailBody = ApiIncident.extend({ description: z.string().max(100_000) });
export type ApiDetail = z.infer<typeof DetailBody>;

export const ErrorBody = z.object({ errors: z.array(z.string()) });

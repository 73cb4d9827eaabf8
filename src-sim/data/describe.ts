/** Synthetic narrative text for the detail endpoint's `description`, derived from the cdid. */
import { hashInts } from './prng';

const OPENINGS = [
  'Officers responded to a report of',
  'A caller reported',
  'Patrol units were dispatched for',
  'A synthetic complainant described',
];
const DETAILS = [
  'No injuries were reported.',
  'The scene was cleared within the hour.',
  'A follow-up report is pending.',
  'Witness statements were taken at the scene.',
  'The case was referred to investigators.',
];

const NOUNS: Record<string, string> = {
  Shooting: 'shots fired',
  Assault: 'an assault',
  Robbery: 'a robbery',
  Burglary: 'a burglary',
  Theft: 'a theft',
  Arson: 'a suspicious fire',
  Vandalism: 'property damage',
  Arrest: 'an arrest',
  Other: 'a disturbance',
};

export function describeIncident(cdid: number, type: string, address: string): string {
  const h = hashInts(cdid, 31, 5);
  const opening = OPENINGS[h % OPENINGS.length];
  const detail = DETAILS[(h >>> 8) % DETAILS.length];
  return `${opening} ${NOUNS[type] ?? 'an incident'} near ${address}. ${detail} (Simulated record, not a real incident.)`;
}

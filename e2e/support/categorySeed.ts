/**
 * A data folder whose archive holds 60 categories (issue 26, item 2): bench/seed.ts's synthetic
 * incidents in the API's 9 standard types, then 51 of a city's own offence categories (names as a
 * real city's records system words them) given to slices of them, each slice smaller than the last
 * — as a city's file brings them in by import.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { seedDatabase } from '../../bench/seed';

/** The API's standard types (src-shared/crimeTypes.ts; e2e does not import the app's source). */
const STANDARD = [
  'Shooting',
  'Assault',
  'Robbery',
  'Burglary',
  'Theft',
  'Arson',
  'Vandalism',
  'Arrest',
  'Other',
];

export const CITY_CATEGORIES = [
  'Hit and Run',
  'Assault Simple',
  'Suspicious Activity',
  'Larceny - All Other',
  'Lost/Found Property',
  'Larceny - From Motor Vehicle',
  'Larceny - Theft from Building',
  'Larceny - Shoplifting',
  'Disorderly Conduct',
  'Motor Vehicle Theft',
  'Assault Aggravated',
  'Larceny - Of Veh Parts/Access',
  'Fraud - False Pretense',
  'Misc - Criminal Call',
  'Assault Intimidation',
  'Driving Under the Influence',
  'Animal Complaint',
  'Shots Fired',
  'Drug/Narcotics Violation',
  'Death Investigation',
  'Fraud - Credit Card',
  'Domestic Disturbance',
  'Missing Person - Juvenile',
  'Fraud - Impersonation',
  'Trespass',
  'Misc - Non-Criminal Call',
  'Drunkenness',
  'Warrant Service',
  'Animal Bite',
  'Harassment',
  'Runaway',
  'Narcotics',
  'Accident with Injuries',
  'Weapons Violations',
  'Forgery/Counterfeiting',
  'Fraud - Wire Fraud',
  'Sex Offense',
  'Towed Vehicle',
  'Family Offense - Non-Violent',
  'Drug Investigation',
  'Missing Person - Adult',
  'Unauthorized Use of Motor Vehicle',
  'Robbery - Strong Arm',
  'Accident without Injuries',
  'Embezzlement',
  'Suspicious Person',
  'Robbery - Armed',
  'Phone Calls - Threat or Obscene',
  'Stolen Property Offenses',
  'Welfare Check',
  'Accident Property Damage',
] as const;

/** Seeds `count` incidents (at least 4,000); category k (0-based) gets 51 − k of them, the first the most. */
export function seedSixtyCategories(dataDir: string, count = 5000): void {
  const file = path.join(dataDir, 'blotter.sqlite');
  seedDatabase(file, { count, seed: 11, days: 60 });
  const db = new Database(file);
  try {
    // The seed's own rare type (not a standard one) becomes a standard one: the 51 are the city's.
    db.prepare(
      `UPDATE incidents SET type = 'Other' WHERE type NOT IN (${STANDARD.map(() => '?').join(', ')})`,
    ).run(...STANDARD);
    // Rows the API has removed count nowhere by default: the categories go to rows that count.
    const ids = (
      db.prepare('SELECT cdid FROM incidents WHERE removed_at IS NULL ORDER BY cdid').all() as {
        cdid: number;
      }[]
    ).map((r) => r.cdid);
    const retype = db.prepare('UPDATE incidents SET type = ? WHERE cdid = ?');
    let next = 0;
    db.transaction(() => {
      CITY_CATEGORIES.forEach((category, k) => {
        for (let n = 0; n < CITY_CATEGORIES.length - k; n++) {
          // Every third row, so the standard types keep most of theirs.
          retype.run(category, ids[next * 3] as number);
          next++;
        }
      });
    })();
  } finally {
    db.close();
  }
}

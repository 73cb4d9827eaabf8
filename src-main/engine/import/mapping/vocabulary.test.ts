/**
 * The vocabulary on real categories: the shared Chicago and Charlottesville exports (their excerpts
 * in ../fixtures), Seattle's one Offense, and San Francisco's 50 Incident Categories as DataSF
 * publishes them (2018 to present).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CRIME_TYPES } from '../../../../src-shared/crimeTypes';
import { proposeTypeMap, typeForCategory } from './vocabulary';

/** The distinct values of one column of a fixture (a plain CSV reader: these files quote simply). */
function categories(file: string, column: string): string[] {
  const text = readFileSync(join(__dirname, '..', 'fixtures', file), 'utf8').replace(/^\uFEFF/, '');
  const rows = text.split(/\r?\n/).filter((l) => l !== '');
  const cells = (line: string) =>
    [...line.matchAll(/("([^"]|"")*"|[^,]*)(,|$)/g)].map((m) => (m[1] ?? '').replace(/^"|"$/g, ''));
  const at = cells(rows[0] as string).indexOf(column);
  expect(at).toBeGreaterThanOrEqual(0);
  return [...new Set(rows.slice(1).map((l) => cells(l)[at] as string))].sort();
}

/** San Francisco's Incident Category values (50), with the 3,532 Larceny Theft of the sample. */
const SF = [
  'Larceny Theft',
  'Other Miscellaneous',
  'Malicious Mischief',
  'Assault',
  'Non-Criminal',
  'Burglary',
  'Motor Vehicle Theft',
  'Recovered Vehicle',
  'Fraud',
  'Warrant',
  'Lost Property',
  'Drug Offense',
  'Robbery',
  'Missing Person',
  'Suspicious Occ',
  'Disorderly Conduct',
  'Offences Against The Family And Children',
  'Miscellaneous Investigation',
  'Other Offenses',
  'Other',
  'Traffic Violation Arrest',
  'Stolen Property',
  'Weapons Offense',
  'Traffic Collision',
  'Vandalism',
  'Case Closure',
  'Sex Offense',
  'Forgery And Counterfeiting',
  'Weapons Carrying Etc',
  'Courtesy Report',
  'Fire Report',
  'Embezzlement',
  'Vehicle Impounded',
  'Arson',
  'Suicide',
  'Prostitution',
  'Rape',
  'Vehicle Misplaced',
  'Homicide',
  'Human Trafficking (A), Commercial Sex Acts',
  'Human Trafficking, Commercial Sex Acts',
  'Gambling',
  'Liquor Laws',
  'Juvenile Offenses',
  'Civil Sidewalks',
  'Drug Violation',
  'Weapons Offence',
  'Suspicious',
  'Human Trafficking (B), Involuntary Servitude',
  'Motor Vehicle Theft?',
];

const placedIn = (map: Record<string, string>) => new Set(Object.values(map));

describe('the offence vocabulary', () => {
  it('San Francisco: Larceny Theft is Theft; 50 categories propose a map onto the standard types, the rest kept', () => {
    expect(SF).toHaveLength(50);
    const map = proposeTypeMap(SF);
    expect(map).toEqual({
      'Larceny Theft': 'Theft',
      'Malicious Mischief': 'Vandalism',
      'Motor Vehicle Theft': 'Theft',
      'Motor Vehicle Theft?': 'Theft',
      'Traffic Violation Arrest': 'Arrest',
    });
    // Categories already a standard type's name need no entry; the homicide group is Homicide.
    for (const t of ['Assault', 'Burglary', 'Robbery', 'Vandalism', 'Arson', 'Homicide'])
      expect(typeForCategory(t)).toBe(t);
    // SF's own "Other", "Other Offenses" and the like stay the file's categories, never the API's Other.
    for (const c of ['Other', 'Other Offenses', 'Other Miscellaneous', 'Non-Criminal', 'Lost Property'])
      expect(typeForCategory(c)).toBeNull();
    // The types in use: three categories are one Theft, Malicious Mischief joins Vandalism.
    const types = new Set(SF.map((c) => map[c] ?? c));
    expect(types.size).toBe(47);
    expect(types).toContain('Theft');
    expect(types).not.toContain('Larceny Theft');
  });

  it('Chicago: every Primary Type of the shared excerpt', () => {
    const cats = categories('chicago-crimes-2016-01-03.head300.csv', 'Primary Type');
    expect(cats).toHaveLength(17);
    expect(proposeTypeMap(cats)).toEqual({
      ASSAULT: 'Assault',
      BATTERY: 'Assault',
      BURGLARY: 'Burglary',
      'CRIMINAL DAMAGE': 'Vandalism',
      'MOTOR VEHICLE THEFT': 'Theft',
      ROBBERY: 'Robbery',
      THEFT: 'Theft',
    });
    // A sexual assault is a sex offence (NIBRS 11), not an assault; OTHER OFFENSE is not the API's Other.
    expect(typeForCategory('CRIM SEXUAL ASSAULT')).toBeNull();
    expect(typeForCategory('OTHER OFFENSE')).toBeNull();
    // In the whole file (1,730 rows): HOMICIDE and ARSON too.
    expect(typeForCategory('HOMICIDE')).toBe('Homicide');
    expect(typeForCategory('ARSON')).toBe('Arson');
  });

  it('Charlottesville: the Larceny and Assault wordings, robberies, shots fired; calls for service kept', () => {
    const cats = categories('charlottesville-crime.head300.csv', 'Offense');
    expect(cats).toHaveLength(50);
    const map = proposeTypeMap(cats);
    expect(map).toEqual({
      'Assault Aggravated': 'Assault',
      'Assault Intimidation': 'Assault',
      'Assault Simple': 'Assault',
      'Larceny - All Other': 'Theft',
      'Larceny - From Motor Vehicle': 'Theft',
      'Larceny - Of Veh Parts/Access': 'Theft',
      'Larceny - Pocket Picking': 'Theft',
      'Larceny - Shoplifitng': 'Theft',
      'Larceny - Theft from Building': 'Theft',
      'Motor Vehicle Theft': 'Theft',
      'Robbery - Armed': 'Robbery',
      'Shots Fired/Illegal Hunting': 'Shooting',
      'Unauthorized Use of Motor Veh': 'Theft',
    });
    for (const c of [
      'Hit and Run',
      'Lost/FoundProperty',
      'Sex Offense - Forcible Rape',
      'Death Investigation - DOA',
      'Misc - Non-Criminal Call',
      'Fraud-false pretense',
    ])
      expect(typeForCategory(c)).toBeNull();
    // The whole file's homicide wordings (not in the excerpt).
    expect(typeForCategory('Homicide-murder/non-negligent')).toBe('Homicide');
    expect(typeForCategory('Homicide-negligent manslaughter')).toBe('Homicide');
  });

  it('Seattle: a file of robberies keeps Robbery', () => {
    expect(proposeTypeMap(['Robbery'])).toEqual({});
    expect(typeForCategory('Robbery')).toBe('Robbery');
  });

  it('UCR and NIBRS offence names and the usual city wordings', () => {
    const cases: [string, string | null][] = [
      ['Larceny Theft', 'Theft'],
      ['Theft From Vehicle', 'Theft'],
      ['Theft From Motor Vehicle', 'Theft'],
      ['All Other Larceny', 'Theft'],
      ['Pocket-picking', 'Theft'],
      ['Theft of Motor Vehicle Parts or Accessories', 'Theft'],
      ['PETIT LARCENY', 'Theft'],
      ['GRAND LARCENY OF MOTOR VEHICLE', 'Theft'],
      ['Thefts', 'Theft'],
      ['Aggravated Assault', 'Assault'],
      ['Simple Assault', 'Assault'],
      ['FELONY ASSAULT', 'Assault'],
      ['Aggravated Assault Firearm', 'Assault'],
      ['Intimidation', 'Assault'],
      ['Breaking & Entering', 'Burglary'],
      ['Burglary/Breaking & Entering', 'Burglary'],
      ['B&E', 'Burglary'],
      ['Criminal Damage', 'Vandalism'],
      ['CRIMINAL MISCHIEF & RELATED OF', 'Vandalism'],
      ['Destruction/Damage/Vandalism of Property', 'Vandalism'],
      ['Motor Vehicle Theft', 'Theft'],
      ['Homicide', 'Homicide'],
      ['Murder & Nonnegligent Manslaughter', 'Homicide'],
      ['Robbery Firearm', 'Robbery'],
      ['Carjacking', 'Robbery'],
      ['Shooting', 'Shooting'],
      ['THEFT', 'Theft'],
      // Not what their words suggest.
      ["POSSESSION OF BURGLAR'S TOOLS", null],
      ['Receiving Stolen Property', null],
      ['Recovered Stolen Motor Vehicle', null],
      ['Identity Theft', null],
      ['Fires Not Arson', null],
      ['Resisting Arrest', null],
      ['Sexual Assault', null],
      ['Other', null],
      ['', null],
    ];
    for (const [category, type] of cases)
      expect([category, typeForCategory(category)]).toEqual([category, type]);
  });

  it('proposes only standard types (and Homicide), never the API’s Other', () => {
    const all = [
      ...SF,
      ...categories('chicago-crimes-2016-01-03.head300.csv', 'Primary Type'),
      ...categories('charlottesville-crime.head300.csv', 'Offense'),
    ];
    const allowed = new Set<string>([...CRIME_TYPES.filter((t) => t !== 'Other'), 'Homicide']);
    for (const t of placedIn(proposeTypeMap(all))) expect(allowed).toContain(t);
  });
});

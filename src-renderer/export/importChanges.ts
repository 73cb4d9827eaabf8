/**
 * What an import would change, in words, from its preview: how many rows are new and what happens
 * to those the archive already holds — e.g. "12 new; of the 48 already in the archive: 3 would gain
 * a description, 40 unchanged, 5 differ from the API's copy and are kept as the API has them".
 */
import type { ImportPreview } from '../../src-shared/exports';
import { count } from '../text/count';

/** The new rows (distinct cdids the archive does not hold). */
export const newRows = (p: ImportPreview): number => p.valid - p.duplicatesInFile - p.existing;

/** One phrase per non-empty group of the rows already held, in the order the run weighs them. */
export function heldPhrases(held: ImportPreview['held']): string[] {
  const out: string[] = [];
  if (held.replace > 0)
    out.push(`${count(held.replace)} imported earlier would be replaced (the file saw them later)`);
  if (held.describe > 0)
    out.push(
      `${count(held.describe)} would gain the description ${held.describe === 1 ? 'it lacks' : 'they lack'}`,
    );
  if (held.unchanged > 0) out.push(`${count(held.unchanged)} unchanged`);
  if (held.keptApi > 0)
    out.push(
      `${count(held.keptApi)} ${held.keptApi === 1 ? 'differs' : 'differ'} from the API’s copy and ${held.keptApi === 1 ? 'is' : 'are'} kept as the API has ${held.keptApi === 1 ? 'it' : 'them'}`,
    );
  if (held.keptHeld > 0)
    out.push(
      `${count(held.keptHeld)} ${held.keptHeld === 1 ? 'differs' : 'differ'} from an earlier import and ${held.keptHeld === 1 ? 'is' : 'are'} kept (the file did not see ${held.keptHeld === 1 ? 'it' : 'them'} later)`,
    );
  return out;
}

/** The whole sentence, e.g. "12 new; of the 48 already in the archive: 3 would gain …". */
export function importChanges(p: ImportPreview): string {
  const fresh = `${count(newRows(p))} new`;
  if (p.existing === 0) return `${fresh}; none already in the archive.`;
  return `${fresh}; of the ${count(p.existing)} already in the archive: ${heldPhrases(p.held).join(', ')}.`;
}

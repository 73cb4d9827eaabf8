/**
 * Streaming JSON records: the elements of the records array of a JSON document, parsed one at a
 * time as the text arrives, so a file of any size never sits in memory whole. The records array is
 * the document itself (`[ {...}, ... ]`) or the value of its first key named features (GeoJSON),
 * crimes (the API's search answer), incidents or records. Records are objects; anything else in
 * the array is skipped. NDJSON (one object per line) is read line by line.
 */

export const RECORD_KEYS = new Set(['features', 'crimes', 'incidents', 'records']);

/** Splits a JSON document into the texts of its records, chunk by chunk. */
export class JsonRecordReader {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Depth of the records array's elements (0: not found yet). */
  private recordDepth = 0;
  private stringStart = -1;
  private lastString = '';
  private pendingString = '';
  /** Text of the record being read, from earlier chunks. */
  private partial = '';
  private recordStart = -1;
  private rootSeen = false;
  /** Text other than white space after the document closed. */
  private trailing = false;

  /** Raw record texts completed by `chunk` (JSON.parse them). */
  push(chunk: string): string[] {
    const out: string[] = [];
    const n = chunk.length;
    if (this.recordStart === -2) this.recordStart = 0; // a record carried over from the last chunk
    if (this.stringStart === -2) this.stringStart = 0;
    for (let i = 0; i < n; i++) {
      const c = chunk.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 92) this.escaped = true;
        else if (c === 34) {
          this.inString = false;
          if (this.stringStart >= 0) {
            this.lastString = this.pendingString + chunk.slice(this.stringStart, i);
            this.pendingString = '';
            this.stringStart = -1;
          }
        }
        continue;
      }
      if (this.depth === 0 && this.rootSeen && c > 32) {
        this.trailing = true;
        continue;
      }
      if (c === 34) {
        this.inString = true;
        // Keys of the root object are remembered: the records array follows its key.
        if (this.depth === 1 && this.recordDepth === 0) this.stringStart = i + 1;
        continue;
      }
      if (c === 123 || c === 91) {
        if (!this.rootSeen) {
          this.rootSeen = true;
          if (c === 91) this.recordDepth = 1;
        } else if (
          c === 91 &&
          this.depth === 1 &&
          this.recordDepth === 0 &&
          RECORD_KEYS.has(this.lastString)
        ) {
          this.recordDepth = 2;
        }
        if (this.depth === this.recordDepth && this.recordDepth > 0 && this.recordStart < 0)
          this.recordStart = i;
        this.depth++;
      } else if (c === 125 || c === 93) {
        this.depth--;
        if (this.depth === this.recordDepth && this.recordStart >= 0) {
          out.push(this.partial + chunk.slice(this.recordStart, i + 1));
          this.partial = '';
          this.recordStart = -1;
        } else if (this.recordDepth > 0 && this.depth === this.recordDepth - 1 && c === 93) {
          this.recordDepth = -1; // the records array ended; anything after it is ignored
        }
      }
    }
    if (this.recordStart >= 0) {
      this.partial += chunk.slice(this.recordStart);
      this.recordStart = -2;
    }
    if (this.stringStart >= 0) {
      this.pendingString += chunk.slice(this.stringStart);
      this.stringStart = -2;
    }
    return out;
  }

  /** Characters held for a record not yet complete. */
  get pending(): number {
    return this.partial.length;
  }

  /** True when a records array was found. */
  get foundRecords(): boolean {
    return this.recordDepth !== 0;
  }

  /** True when the document was closed (not cut short): its root, and no string or record open. */
  get closed(): boolean {
    return this.rootSeen && this.depth === 0 && !this.inString && this.recordStart === -1;
  }

  /** True when something other than white space follows the document. */
  get trailingText(): boolean {
    return this.trailing;
  }
}

/** NDJSON: each non-blank line is one record. */
export class NdjsonRecordReader {
  private rest = '';

  push(chunk: string): string[] {
    // A chunk that ends no line is only held: splitting the held text again for each chunk read a
    // long line in the square of its length.
    const nl = chunk.lastIndexOf('\n');
    if (nl < 0) {
      this.rest += chunk;
      return [];
    }
    const lines = (this.rest + chunk.slice(0, nl)).split('\n');
    this.rest = chunk.slice(nl + 1);
    return lines.filter((l) => l.trim() !== '');
  }

  /** Characters held for a line not yet complete. */
  get pending(): number {
    return this.rest.length;
  }

  end(): string[] {
    const last = this.rest.trim();
    this.rest = '';
    return last ? [last] : [];
  }
}

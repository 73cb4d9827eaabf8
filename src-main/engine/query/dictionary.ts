/** A string dictionary: each distinct value gets the next small integer id, for ever. */
export class Dictionary {
  readonly values: string[] = [];
  private readonly ids = new Map<string, number>();

  static of(values: readonly string[]): Dictionary {
    const dict = new Dictionary();
    for (const v of values) dict.id(v);
    return dict;
  }

  id(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(value);
      this.ids.set(value, id);
    }
    return id;
  }

  /** The id of `value`, or -1 when it never occurred. */
  find(value: string): number {
    return this.ids.get(value) ?? -1;
  }

  get size(): number {
    return this.values.length;
  }
}

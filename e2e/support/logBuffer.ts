/** Collects a process's (or a page's) output so tests can search it, e.g. for a leaked key. */
export class LogBuffer {
  private readonly chunks: string[] = [];

  append(chunk: string | Buffer): void {
    this.chunks.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
  }

  get text(): string {
    return this.chunks.join('');
  }
}

/**
 * A remote PMTiles archive read by HTTP range requests, under the outbound rules (outboundGet:
 * https or loopback, no redirect to another origin; bodies capped). Every answer must be a 206 for
 * exactly the range asked, carrying the etag seen first: a 200 means the server ignores ranges, a
 * new etag means a new build — and bytes from two builds are never mixed.
 */
import { capText, outboundGet } from '../../api/outboundAddress';
import type { FetchLike } from '../../api/source';
import { ExtractProblem, sourceChanged } from './problems';

export type RangeSource = {
  readonly url: string;
  /** The etag of the first answer (null when the server sends none). */
  etag(): string | null;
  read(offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array>;
  /** Requests made and bytes received so far. */
  readonly stats: { requests: number; bytes: number };
};

export function openRangeSource(
  url: string,
  fetch: FetchLike,
  expectedEtag: string | null = null,
): RangeSource {
  let etag = expectedEtag;
  const stats = { requests: 0, bytes: 0 };
  const host = (() => {
    try {
      return new URL(url).host;
    } catch {
      return url;
    }
  })();

  async function read(offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array> {
    const last = offset + length - 1;
    let response: Response;
    try {
      response = await outboundGet(
        fetch,
        url,
        {
          signal,
          headers: { Range: `bytes=${offset}-${last}`, 'Accept-Encoding': 'identity' },
        },
        'tiles',
      );
    } catch (error) {
      if (signal?.aborted) throw new ExtractProblem('cancelled', 'The basemap download was cancelled.');
      throw error;
    }
    stats.requests++;
    const cancel = () => response.body?.cancel().catch(() => undefined);
    if (response.status === 200) {
      await cancel();
      throw new ExtractProblem(
        'no_range_support',
        `${host} does not answer range requests (it sent the whole file), so Blotter cannot read parts of the archive from it. Use a server that supports HTTP range requests (most static file hosts and S3-style storage do).`,
      );
    }
    if (response.status === 416 && offset > 0) {
      await cancel();
      throw sourceChanged();
    }
    if (response.status !== 206) {
      await cancel();
      throw new ExtractProblem('http', `${host} answered HTTP ${response.status} to a range request.`);
    }
    const got = response.headers.get('etag');
    if (stats.requests === 1 && expectedEtag === null) etag = got;
    else if (etag !== got) {
      await cancel();
      throw sourceChanged();
    }
    const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(response.headers.get('content-range') ?? '');
    if (!range || Number(range[1]) !== offset || Number(range[2]) > last) {
      await cancel();
      throw new ExtractProblem('http', `${host} answered a range request with other bytes than asked.`);
    }
    const expected = Number(range[2]) - offset + 1;
    let body: Uint8Array;
    try {
      body = await readBody(response, expected, signal);
    } catch (error) {
      if (signal?.aborted) throw new ExtractProblem('cancelled', 'The basemap download was cancelled.');
      throw error;
    }
    stats.bytes += body.byteLength;
    if (body.byteLength !== expected) {
      throw new ExtractProblem('http', `${host} sent ${body.byteLength} bytes for a ${expected}-byte range.`);
    }
    return body;
  }

  return { url, etag: () => etag, read, stats };
}

async function readBody(response: Response, max: number, signal?: AbortSignal): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array(0);
  const out = new Uint8Array(max);
  let at = 0;
  const reader = response.body.getReader();
  for (;;) {
    if (signal?.aborted) {
      await reader.cancel().catch(() => undefined);
      throw new ExtractProblem('cancelled', 'The basemap download was cancelled.');
    }
    const { done, value } = await reader.read();
    if (done) break;
    if (at + value.byteLength > max) {
      await reader.cancel().catch(() => undefined);
      throw new ExtractProblem('http', `A range answer was longer than the ${capText(max)} asked for.`);
    }
    out.set(value, at);
    at += value.byteLength;
  }
  return out.subarray(0, at);
}

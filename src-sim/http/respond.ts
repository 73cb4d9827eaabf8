/** Writing responses: JSON, JSONP, the `{ errors: [...] }` body, and the error type handlers throw. */
import type { ServerResponse } from 'node:http';

/** A failure a handler reports; becomes `{ "errors": messages }` with `status`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly messages: string[],
    readonly headers: Record<string, string> = {},
  ) {
    super(messages.join('; '));
  }
}

/** A finished response, before fault injection may spoil it. */
export type Reply = { status: number; headers: Record<string, string>; body: string };

const COMMON = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

export function jsonReply(status: number, payload: unknown, headers: Record<string, string> = {}): Reply {
  return {
    status,
    headers: { ...COMMON, 'Content-Type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(payload),
  };
}

export function errorReply(e: ApiError): Reply {
  return jsonReply(e.status, { errors: e.messages }, e.headers);
}

/** JSONP: the payload wrapped in a call to an already validated function name. */
export function jsonpReply(callback: string, payload: unknown): Reply {
  return {
    status: 200,
    headers: { ...COMMON, 'Content-Type': 'application/javascript; charset=utf-8' },
    body: `${callback}(${JSON.stringify(payload)});`,
  };
}

export function htmlReply(status: number): Reply {
  const title = status === 503 ? '503 Service Temporarily Unavailable' : '502 Bad Gateway';
  return {
    status,
    headers: { ...COMMON, 'Content-Type': 'text/html; charset=utf-8' },
    body: `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`,
  };
}

export function send(res: ServerResponse, reply: Reply): void {
  const body = Buffer.from(reply.body, 'utf8');
  res.writeHead(reply.status, { ...reply.headers, 'Content-Length': String(body.length) });
  res.end(body);
}

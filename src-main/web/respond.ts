/**
 * Responses of the web host: every one carries the security headers; none ever carries CORS
 * headers. Errors on /api/* are JSON `Result`s, so the renderer's bridge always has a typed answer.
 */
import type { ServerResponse } from 'node:http';
import type { BridgeError } from '../../src-shared/contract';
import { encodeWireParts } from '../../src-shared/wire';

export function securityHeaders(csp: string): Record<string, string> {
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
    'Cache-Control': 'no-store',
  };
}

/**
 * JSON in the wire form (src-shared/wire.ts): typed arrays travel as base64. An engine answer's
 * base64 arrives as bytes (`toWireValue` in the worker) and is written as it is, chunk by chunk:
 * no string of it, no copy, so a 1M-point answer does not hold this event loop (issue 13).
 */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const parts = encodeWireParts(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': parts.reduce((n, p) => n + p.byteLength, 0),
  });
  for (const part of parts) {
    for (let at = 0; at < part.byteLength; at += WRITE_CHUNK_BYTES) {
      res.write(part.subarray(at, Math.min(at + WRITE_CHUNK_BYTES, part.byteLength)));
    }
  }
  res.end();
}

/** Each write hands the socket at most this much (views of the answer's own bytes, not copies). */
const WRITE_CHUNK_BYTES = 1 << 20;

export function sendError(
  res: ServerResponse,
  status: number,
  error: BridgeError,
  extra: Record<string, string> = {},
): void {
  for (const [name, value] of Object.entries(extra)) res.setHeader(name, value);
  sendJson(res, status, { ok: false, error });
}

export function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** A small HTML page for a person who opened the wrong address. Text only, no script. */
export function sendPage(res: ServerResponse, status: number, title: string, message: string): void {
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
    `<body style="font-family: system-ui, sans-serif; margin: 3rem; max-width: 40rem">` +
    `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></body></html>`;
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
  });
  res.end(html);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The web host: the built renderer and the contract over HTTP, on 127.0.0.1 only, for one browser
 * holding this launch's token (src-shared/webProtocol.ts). Every request passes, in order:
 *
 * 1. Host must be `127.0.0.1:PORT` or `localhost:PORT` (else 421: DNS-rebinding defence);
 * 2. Origin, when present, must be `http://127.0.0.1:PORT` or `http://localhost:PORT` (else 403);
 * 3. `GET /?token=T` with the right token sets the HttpOnly, SameSite=Strict session cookie — a
 *    fresh random secret, not the token — and redirects (303) to `/`; a wrong token gets 401;
 * 4. everything else needs that cookie (else 401: a page saying how to sign in, or a JSON Result
 *    with `forbidden_sender` on /api/*) — or a print grant's cookie, which reads only the static
 *    files and its own job's report (printAccess.ts);
 * 5. API requests that carry fetch metadata (Sec-Fetch-Site) must be same-origin (else 403).
 *
 * No CORS headers are ever sent, so no other origin can read an answer. Exports are downloaded
 * from /api/download/<name> and imports uploaded to /api/upload (files.ts). Refusals are logged
 * in aggregate (refusalLog.ts), so a flood of them cannot flood stderr. See README.md.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import {
  CALL_PREFIX,
  DOWNLOAD_PREFIX,
  EVENTS_PATH,
  TOKEN_PARAM,
  UPLOAD_PATH,
} from '../../src-shared/webProtocol';
import { STRICT_CSP } from '../electron/csp';
import {
  createLogger,
  sendScheduledReports,
  withExportHooks,
  type EngineHandle,
  type ExportHostHooks,
} from '../engine/index';
import { handleCall } from './calls';
import { streamEvents } from './events';
import { receiveUpload, serveDownload } from './files';
import { createPrintAccess, printCookieName, printMayCall } from './printAccess';
import { createRefusalLog } from './refusalLog';
import { printWithChromium } from './reportPrinter';
import { sendError, sendPage, sendText, securityHeaders } from './respond';
import {
  hasSession,
  hostAllowed,
  newToken,
  originAllowed,
  sameOriginFetch,
  sameSecret,
  sessionCookie,
} from './session';
import { loadStaticFiles } from './staticFiles';

export interface WebHostOptions {
  engine: EngineHandle;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Loopback only; there is deliberately no other choice. */
  host?: '127.0.0.1';
  /** The page's Content-Security-Policy; the strict default unless settings widen it. */
  csp?: () => string;
  heartbeatMs?: number;
  /** The Chromium that prints PDF reports (default /usr/bin/chromium, or BLOTTER_CHROMIUM). */
  chromium?: string;
  /** Prints a report page (default: headless Chromium over the DevTools pipe); tests pass a fake. */
  print?: typeof printWithChromium;
  /** Where an export goes; by default the data folder's exports/ (the CLI's `report` names its file). */
  chooseDestination?: ExportHostHooks['chooseDestination'];
}

export interface WebHost {
  /** `http://127.0.0.1:PORT/?token=TOKEN`: the one address that signs a browser in. */
  readonly url: string;
  readonly port: number;
  /** The engine as this host serves it: its exports print through this host (the CLI's `report`). */
  readonly engine: EngineHandle;
  close(): Promise<void>;
}

const log = createLogger('web');

export const SIGN_IN_HINT = 'Open the URL printed by `npm run web`, including its token.';

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const host = options.host ?? '127.0.0.1';
  const rendererDir = path.resolve(options.rendererDir);
  const csp = options.csp ?? (() => STRICT_CSP);
  // The renderer's files in memory before the URL is printed: a launch opens no file here.
  const statics = await loadStaticFiles(rendererDir);
  const token = newToken();
  // The session cookie's value: its own secret, so the token printed to the terminal is not a cookie.
  const sessionSecret = newToken();
  const streams = new Set<() => void>();
  let port = 0;
  // Exports and imports (engine/export/hostHooks.ts): exports go to the data folder's exports/ and
  // are downloaded from there; imports are uploads; PDF reports are printed by headless Chromium
  // holding a print grant for that one job, revoked when the print ends.
  const prints = createPrintAccess();
  const printReport: ExportHostHooks['printReport'] = async ({ jobId, file, paper }) => {
    const grant = prints.issue(jobId);
    try {
      await (options.print ?? printWithChromium)(
        {
          origin: `http://${host}:${port}`,
          jobId,
          cookie: { name: printCookieName(port), value: grant },
          file,
          ...(paper ? { paper } : {}),
        },
        { chromium: options.chromium ?? process.env.BLOTTER_CHROMIUM },
      );
    } finally {
      prints.revoke(grant);
    }
  };
  const engine = withExportHooks(options.engine, {
    chooseDestination: options.chooseDestination ?? (async () => undefined),
    chooseImport: async (sent) => {
      if (sent && 'uploadId' in sent) return sent;
      throw new Error('Upload the file from this page first: the web host imports only uploaded files.');
    },
    printReport,
  });

  const refusals = createRefusalLog((line) => log.warn(line));
  // Emailed bulletins: when the engine's timer says a schedule is due, print it here and hand it back.
  const stopSending = sendScheduledReports(options.engine, printReport, (error) =>
    log.warn('scheduled reports not sent', { error }),
  );

  /** A request holding only a print grant: the static files, and its own job's report. */
  const routePrint = async (
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    jobId: string,
  ): Promise<void> => {
    if (url.pathname.startsWith(CALL_PREFIX) && sameOriginFetch(req)) {
      return handleCall(req, res, engine, url.pathname.slice(CALL_PREFIX.length), (name, input) =>
        printMayCall(name, input, jobId),
      );
    }
    if (!url.pathname.startsWith('/api/')) return statics.serve(req, res, url.pathname);
    refusals.refused('print grant out of scope');
    return sendError(res, 403, { code: 'forbidden_sender', message: 'A print grant reads only its report.' });
  };

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    for (const [name, value] of Object.entries(securityHeaders(csp()))) res.setHeader(name, value);
    if (!hostAllowed(req, port)) {
      refusals.refused('foreign Host');
      return sendText(res, 421, `Blotter answers only at 127.0.0.1:${port} or localhost:${port}.`);
    }
    if (!originAllowed(req, port)) {
      refusals.refused('foreign Origin');
      return sendText(res, 403, 'Requests from other sites are refused.');
    }
    const target = req.url ?? '';
    if (!target.startsWith('/')) return sendText(res, 400, 'Bad request.');
    const url = new URL(target, `http://${host}:${port}`);
    const api = url.pathname.startsWith('/api/');

    if (url.pathname === '/' && url.searchParams.has(TOKEN_PARAM)) {
      if (!sameSecret(url.searchParams.get(TOKEN_PARAM) ?? undefined, token)) {
        refusals.refused('wrong token');
        return sendPage(res, 401, 'Wrong token', `This token is not this launch's. ${SIGN_IN_HINT}`);
      }
      res.writeHead(303, { 'Set-Cookie': sessionCookie(sessionSecret, port), Location: '/' });
      return void res.end();
    }
    const printJob = hasSession(req, sessionSecret, port) ? null : prints.jobOf(req, port);
    if (printJob !== null) return routePrint(req, res, url, printJob);
    if (!hasSession(req, sessionSecret, port)) {
      refusals.refused('not signed in');
      if (api) {
        return sendError(res, 401, {
          code: 'forbidden_sender',
          message: `This browser is not signed in to Blotter. ${SIGN_IN_HINT}`,
        });
      }
      return sendPage(res, 401, 'Sign in to Blotter', SIGN_IN_HINT);
    }
    if (api && !sameOriginFetch(req)) {
      refusals.refused('cross-site fetch');
      return sendError(res, 403, {
        code: 'forbidden_sender',
        message: 'Requests from other sites are refused.',
      });
    }

    if (url.pathname.startsWith(CALL_PREFIX)) {
      return handleCall(req, res, engine, url.pathname.slice(CALL_PREFIX.length));
    }
    if (url.pathname.startsWith(DOWNLOAD_PREFIX)) {
      return serveDownload(req, res, engine, url.pathname.slice(DOWNLOAD_PREFIX.length));
    }
    if (url.pathname === UPLOAD_PATH) return receiveUpload(req, res, engine);
    if (url.pathname === EVENTS_PATH) {
      const end = streamEvents(req, res, engine, options.heartbeatMs);
      if (end) {
        streams.add(end);
        res.on('close', () => streams.delete(end));
      }
      return;
    }
    if (api) return sendError(res, 404, { code: 'not_found', message: 'No such API path.' });
    return statics.serve(req, res, url.pathname);
  };

  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      log.error('request failed', { path: req.url?.split('?')[0], error });
      if (!res.headersSent) sendText(res, 500, 'Internal error.');
      else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://${host}:${port}/?${TOKEN_PARAM}=${token}`,
    port,
    engine,
    close: () =>
      new Promise<void>((resolve) => {
        for (const end of streams) end();
        stopSending();
        refusals.flush();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

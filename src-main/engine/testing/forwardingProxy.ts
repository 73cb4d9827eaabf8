/**
 * A test proxy in front of a server (the simulator): each request is forwarded as is and its answer
 * sent back. `hold` keeps every request waiting until it settles (a door a test opens when it is
 * ready); `onAnswer` sees each request's path and status. Used by *.test.ts files only.
 */
import { createServer } from 'node:http';

export type ForwardingProxy = { url: string; close(): Promise<void> };

export async function startForwardingProxy(
  target: string,
  options: { hold?: Promise<void>; onAnswer?: (path: string, status: number) => void } = {},
): Promise<ForwardingProxy> {
  const server = createServer((req, res) => {
    void (async () => {
      await options.hold;
      const r = await fetch(`${target}${req.url ?? ''}`);
      options.onAnswer?.(req.url ?? '', r.status);
      const headers: Record<string, string> = {};
      r.headers.forEach((v, k) => {
        // fetch already decoded the body and knows its length; these would describe another body.
        if (!['content-encoding', 'content-length', 'transfer-encoding'].includes(k)) headers[k] = v;
      });
      res.writeHead(r.status, headers);
      res.end(Buffer.from(await r.arrayBuffer()));
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeFetch } from './nodeFetch';

/** An origin server and a CONNECT proxy in front of it, both on loopback. */
let origin: Server;
let proxy: Server;
let originUrl: string;
let proxyUrl: string;
const tunnels: string[] = [];

beforeAll(async () => {
  origin = createServer((_req, res) => res.end('{"crimes":[]}'));
  proxy = createServer((_req, res) => res.writeHead(405).end());
  proxy.on('connect', (req, socket, head) => {
    tunnels.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}/crimes.json`;
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  proxy.closeAllConnections();
  origin.closeAllConnections();
  await new Promise<void>((r) => proxy.close(() => r()));
  await new Promise<void>((r) => origin.close(() => r()));
});

describe('Node fetch', () => {
  it('goes direct without a proxy setting', async () => {
    const f = await createNodeFetch({});
    const before = tunnels.length;
    expect(await (await f(originUrl, {})).text()).toBe('{"crimes":[]}');
    expect(tunnels.length).toBe(before);
  });

  it('goes through HTTPS_PROXY / HTTP_PROXY when set', async () => {
    const f = await createNodeFetch({ HTTPS_PROXY: proxyUrl, HTTP_PROXY: proxyUrl });
    const res = await f(originUrl, {});
    expect(await res.text()).toBe('{"crimes":[]}');
    expect(tunnels.at(-1)).toBe(new URL(originUrl).host);
  });
});

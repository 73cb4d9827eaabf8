/**
 * The Content-Security-Policy of the renderer, as a function of the settings that widen it.
 *
 * Pure (no Electron): the Electron shell sends it on every app:// answer (appProtocol.ts) and on
 * http(s) responses (session.ts), the web host sends it on every response, and the renderer's
 * index.html carries the same string in a <meta> tag as a second line. On app://blotter, 'self'
 * is that origin only (the scheme is standard and secure), never other local files.
 */

export interface CspOptions {
  /**
   * An online tile server the user configured (a URL template such as
   * `https://{s}.tile.example.org/{z}/{x}/{y}.png`): allowed for images and fetches, nothing else.
   */
  tileUrl?: string | null;
  /**
   * electron-vite's dev server, development only: its inline React-refresh preamble and its HMR
   * web socket. Never set for a built app.
   */
  devServerUrl?: string | null;
}

type Directives = Record<string, string[]>;

const STRICT: Directives = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'worker-src': ["'self'", 'blob:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'frame-ancestors': ["'none'"],
  'form-action': ["'none'"],
};

export function contentSecurityPolicy(options: CspOptions = {}): string {
  const d: Directives = Object.fromEntries(Object.entries(STRICT).map(([k, v]) => [k, [...v]]));
  if (options.tileUrl) {
    const source = tileSource(options.tileUrl);
    d['img-src']?.push(source);
    d['connect-src']?.push(source);
  }
  if (options.devServerUrl) {
    const dev = new URL(options.devServerUrl);
    d['script-src']?.push("'unsafe-inline'");
    d['connect-src']?.push(dev.origin, `${dev.protocol === 'https:' ? 'wss' : 'ws'}://${dev.host}`);
  }
  return Object.entries(d)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

/** The policy of a built app with default settings: what index.html's <meta> tag carries. */
export const STRICT_CSP = contentSecurityPolicy();

/**
 * The CSP source (`scheme://host[:port]`) of a tile URL template. A placeholder in the leftmost
 * host label (`{s}.tile.example.org`) becomes a wildcard; anything else that is not a plain http(s)
 * URL is refused, so a setting can never inject other directives.
 */
export function tileSource(template: string): string {
  const match = /^(https?):\/\/([^/?#]+)/i.exec(template.trim());
  if (!match?.[1] || !match[2]) throw new Error('A tile URL must start with http:// or https://');
  const scheme = match[1].toLowerCase();
  const host = match[2].replace(/^\{[a-z]+\}\./i, '*.').toLowerCase();
  if (!/^(\*\.)?[a-z0-9.-]+(:\d{1,5})?$/.test(host)) throw new Error(`Unsupported tile host: ${match[2]}`);
  return `${scheme}://${host}`;
}

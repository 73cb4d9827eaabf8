import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../src-shared/contract';
import type { DemoStatus } from '../../src-shared/firstRun';
import type { KeyStatus } from '../../src-shared/secrets';
import { viewOf, DEFAULT_SETTINGS } from '../../src-shared/settings';
import type { AreaView } from '../../src-shared/sync';
import { BridgeCallError, type Client } from '../bridge/client';
import { DemoBannerView } from './DemoBanner';
import { failureTitle, isFirstRun, isLanding, shouldWelcome, type FirstRunFacts } from './decision';
import { demoSync } from './demoProgress';
import { KeyForm, outcomeOf } from './KeyForm';
import { WelcomeScreen } from './WelcomeScreen';

const keychain = { available: true as const, backend: 'Secret Service (libsecret)' };
const noKey: KeyStatus = { keySet: false, keychain };
const withKey: KeyStatus = { keySet: true, keychain };
const noKeychain: KeyStatus = {
  keySet: false,
  keychain: { available: false, problem: 'No D-Bus session is running.', fix: 'Run dbus-run-session.' },
};
const notDemo: DemoStatus = {
  active: false,
  available: true,
  dataDir: '/home/ana/.config/Blotter-demo',
  city: 'Chicago',
  areaId: null,
  keyStorage: null,
};
const inDemo: DemoStatus = { ...notDemo, active: true, areaId: 1, keyStorage: 'keychain' };
const facts = (over: Partial<FirstRunFacts> = {}): FirstRunFacts => ({
  keyStatus: noKey,
  areaCount: 0,
  demo: notDemo,
  ...over,
});

describe('when the welcome screen shows', () => {
  it('greets a first launch: no key, no areas, not the demo', () => {
    expect(isFirstRun(facts())).toBe(true);
    expect(isFirstRun(facts({ keyStatus: withKey }))).toBe(false);
    expect(isFirstRun(facts({ areaCount: 1 }))).toBe(false);
    expect(isFirstRun(facts({ demo: inDemo }))).toBe(false);
    // No keychain is still a first launch: the demo works, and the key path explains the fix.
    expect(isFirstRun(facts({ keyStatus: noKeychain }))).toBe(true);
  });

  it('opens on the landing address only, and not once skipped', () => {
    for (const hash of ['', '#', '#/', '#/welcome']) expect(isLanding(hash), hash).toBe(true);
    for (const hash of ['#/map', '#/settings', '#/areas']) expect(isLanding(hash), hash).toBe(false);
    expect(shouldWelcome(facts(), '', false)).toBe(true);
    expect(shouldWelcome(facts(), '#/settings', false)).toBe(false);
    expect(shouldWelcome(facts(), '', true)).toBe(false);
    expect(shouldWelcome(facts({ keyStatus: withKey }), '', false)).toBe(false);
  });

  it('names each failure of the connection test', () => {
    expect(failureTitle('unauthorized')).toBe('The key was rejected (401)');
    expect(failureTitle('ip_not_allowed')).toBe("This computer's IP address is not allowed (403)");
    expect(failureTitle('offline')).toBe('Could not reach the API');
    expect(failureTitle('rate_limited')).toMatch(/429/);
    expect(failureTitle('internal')).toBe('The test did not complete');
  });
});

describe('the outcome of a connection test', () => {
  it("shows the engine's words, or the fields' words for a contract check", () => {
    const refused = new BridgeCallError('testConnection', {
      code: 'ip_not_allowed',
      message: "This computer's public IP address is not on the key's allowlist. …",
    });
    expect(outcomeOf(refused)).toEqual({
      ok: false,
      code: 'ip_not_allowed',
      title: "This computer's IP address is not allowed (403)",
      message: "This computer's public IP address is not on the key's allowlist. …",
      canSaveAnyway: false, // a 403 stores what was entered already
    });
    const rejected = new BridgeCallError('testConnection', { code: 'unauthorized', message: 'Rejected.' });
    expect(outcomeOf(rejected)).toMatchObject({ canSaveAnyway: true });
    const badUrl = new BridgeCallError('testConnection', {
      code: 'bad_input',
      message: 'Invalid input for testConnection: baseUrl: Enter a full URL',
      issues: [{ path: 'baseUrl', message: 'Enter a full URL, such as https://api.example.com' }],
    });
    expect(outcomeOf(badUrl)).toMatchObject({
      message: 'Enter a full URL, such as https://api.example.com',
      canSaveAnyway: false,
    });
    const noApi = new BridgeCallError('testConnection', {
      code: 'bad_input',
      message: 'api.example.com has no API at this address (HTTP 404 for /crimes.json). Check the base URL.',
      issues: [{ path: 'baseUrl', message: 'No API at this address (404).' }],
    });
    expect(outcomeOf(noApi)).toMatchObject({
      message: expect.stringMatching(/^api\.example\.com has no API/),
      canSaveAnyway: true,
    });
    expect(outcomeOf(new Error('boom'))).toMatchObject({ ok: false, code: 'local' });
  });
});

type Progress = Extract<EngineEvent, { type: 'syncProgress' }>;
const progress = (over: Partial<Progress>): Progress => ({
  type: 'syncProgress',
  areaId: 1,
  runId: 1,
  kind: 'backfill',
  state: 'running',
  planned: 40,
  done: 12,
  new: 350,
  updated: 0,
  removed: 0,
  etaSeconds: 3,
  ...over,
});
const area = (over: Partial<AreaView>): AreaView => ({
  id: 1,
  name: 'Chicago (demo)',
  shape: { kind: 'circle', lat: 41.88, lon: -87.63, radiusMi: 2 },
  refreshMinutes: 60,
  paused: false,
  createdAt: 1,
  lastSyncedAt: null,
  backfilledAt: null,
  lastRun: null,
  syncing: false,
  ...over,
});
const run = (
  state: 'running' | 'done' | 'failed',
  extra: Partial<NonNullable<AreaView['lastRun']>> = {},
) => ({
  runId: 1,
  kind: 'backfill' as const,
  state,
  startedAt: 1,
  finishedAt: null,
  requests: 40,
  new: 1022,
  updated: 0,
  removed: 0,
  error: null,
  ...extra,
});

describe("the demo banner's sync line", () => {
  it('follows the live progress of the demo area', () => {
    expect(demoSync(progress({}), undefined)).toEqual({
      state: 'syncing',
      text: 'Syncing the demo area through the normal engine: 12 of about 40 requests, 350 incidents so far.',
    });
    expect(demoSync(progress({ state: 'waiting-rate' }), undefined).state).toBe('syncing');
    expect(demoSync(progress({ state: 'done', new: 1022 }), undefined)).toEqual({
      state: 'done',
      text: 'The demo area is synced. Explore the Map, Table, History and Export.',
    });
    expect(
      demoSync(progress({ state: 'failed', error: { code: 'offline', message: 'No answer.' } }), undefined),
    ).toEqual({ state: 'failed', text: 'The demo sync failed: No answer.' });
  });

  it('falls back to the area when no event reached this page yet', () => {
    expect(demoSync(undefined, undefined)).toEqual({ state: 'idle', text: '' });
    expect(demoSync(undefined, area({ syncing: true })).state).toBe('syncing');
    expect(demoSync(undefined, area({ lastRun: run('done') }))).toMatchObject({ state: 'done' });
    expect(demoSync(undefined, area({ lastRun: run('failed', { error: 'Refused.' }) }))).toEqual({
      state: 'failed',
      text: 'The demo sync failed: Refused.',
    });
  });

  it('labels the demo on one folded line (where it lives behind Details) and offers removal', () => {
    const html = renderToStaticMarkup(
      <DemoBannerView demo={inDemo} sync={{ state: 'done', text: 'Synced.' }} onRemove={async () => {}} />,
    );
    expect(html).toContain('aria-label="Synthetic demo data"');
    expect(html).toContain('data-demo-sync="done"');
    // Folded at every window size, so the map keeps its room (e2e/first-run opens Details for the folder).
    expect(html).toContain('data-collapsed="true"');
    expect(html).toContain('aria-expanded="false">Details</button>');
    expect(html).not.toContain('/home/ana/.config/Blotter-demo');
    expect(html).toContain('Remove demo data…');
    expect(html).not.toContain('in memory');
    const memory = renderToStaticMarkup(
      <DemoBannerView
        demo={{ ...inDemo, keyStorage: 'memory' }}
        sync={{ state: 'syncing', text: '' }}
        onRemove={async () => {}}
      />,
    );
    expect(memory).toContain('the demo key is kept in memory only');
  });
});

const client = {} as Client;
const settings = viewOf(DEFAULT_SETTINGS);
const noop = () => {};

describe('the welcome screen', () => {
  it('offers both paths and a way past', () => {
    const html = renderToStaticMarkup(
      <WelcomeScreen
        client={client}
        settings={settings}
        keyStatus={noKey}
        demo={notDemo}
        onStartDemo={async () => {}}
        onConnected={noop}
        onSkip={noop}
        onRecheckKeychain={noop}
      />,
    );
    expect(html).toContain('Welcome to Blotter');
    expect(html).toContain('Use my API key');
    expect(html).toContain('Explore with demo data');
    expect(html).toContain('Skip for now');
    expect(html).not.toContain('Test connection'); // the form opens on request
  });

  it('hides the demo where the host cannot run it', () => {
    const html = renderToStaticMarkup(
      <WelcomeScreen
        client={client}
        settings={settings}
        keyStatus={noKey}
        demo={{ ...notDemo, available: false }}
        onStartDemo={async () => {}}
        onConnected={noop}
        onSkip={noop}
        onRecheckKeychain={noop}
        initialPath="key"
      />,
    );
    expect(html).not.toContain('Explore with demo data');
    expect(html).toContain('Test connection');
  });

  it('asks for base URL, plan and key, and explains a missing keychain instead of taking the key', () => {
    const html = renderToStaticMarkup(
      <KeyForm
        client={client}
        settings={settings}
        keyStatus={noKeychain}
        onConnected={noop}
        onRecheckKeychain={noop}
      />,
    );
    expect(html).toContain('Base URL');
    expect(html).toContain('Plan');
    expect(html).toContain('Enterprise');
    expect(html).toContain('No keychain available');
    expect(html).toContain('Run dbus-run-session.');
    expect(html).toMatch(/<input[^>]*type="password"[^>]*disabled=""/);
    expect(html).toMatch(/<button type="submit"[^>]*disabled=""[^>]*>Test connection/);
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../../src-shared/contract';
import { startSimulator, type Simulator } from '../../../src-sim/index';
import type { Engine, EngineOptions } from '../engine';
import type { SecretStore } from '../secrets/secretStore';
import { connectTo, enterpriseKey, ok, openEngine, type EngineFixture } from '../testing/engineFixture';

const KEY = 'alerts-handler-key-42';
const loop = { kind: 'circle' as const, lat: 41.8837, lon: -87.6289, radiusMi: 0.4 };
let sim: Simulator;
let fx: EngineFixture | null = null;
let events: EngineEvent[];
let secrets: SecretStore;

beforeAll(async () => {
  sim = await startSimulator({
    seed: 17,
    scale: 20_000,
    spanDays: 30,
    keys: [enterpriseKey(KEY)],
  });
});
afterAll(() => sim.close());
afterEach(async () => {
  await fx?.close();
  fx = null;
});

async function open(options: Partial<EngineOptions> = {}): Promise<Engine> {
  fx = openEngine({ scheduler: false, ...options });
  ({ events, secrets } = fx);
  await connectTo(fx.engine, sim.url, KEY);
  return fx.engine;
}

describe('alert calls', () => {
  it('adds, tests, pauses, edits and removes a rule; refusals say what is wrong', async () => {
    const e = await open();
    const area = await ok(e.dispatch('createArea', { name: 'Loop', shape: loop }));
    await ok(e.dispatch('runSync', { areaIds: [area.id] }));

    const rule = { name: 'Anything', areaId: area.id, condition: { kind: 'any' as const } };
    const test = await ok(e.dispatch('testAlertRule', { rule, days: 90 }));
    // "any" fires once per incident the filter keeps: every incident of the last 90 days.
    expect(test.fired).toBeGreaterThan(0);
    expect(test.fired).toBe(test.matched);

    const saved = await ok(e.dispatch('addAlertRule', { rule }));
    expect(saved).toMatchObject({ name: 'Anything', paused: false });
    expect((await ok(e.dispatch('testAlertRule', { ruleId: saved.id }))).fired).toBe(test.fired);
    expect((await ok(e.dispatch('setAlertRulePaused', { id: saved.id, paused: true }))).paused).toBe(true);
    const edited = await ok(
      e.dispatch('updateAlertRule', {
        id: saved.id,
        rule: { ...rule, name: 'Three in a week', condition: { kind: 'threshold', count: 3, days: 7 } },
      }),
    );
    expect(edited.condition).toEqual({ kind: 'threshold', count: 3, days: 7 });
    expect((await ok(e.dispatch('listAlertRules', {}))).rules.map((r) => r.name)).toEqual([
      'Three in a week',
    ]);

    const noArea = await e.dispatch('addAlertRule', { rule: { ...rule, areaId: 999 } });
    expect(noArea.ok ? null : noArea.error).toMatchObject({ code: 'bad_input', message: /no area 999/ });
    const badCount = await e.dispatch('addAlertRule', {
      rule: { ...rule, condition: { kind: 'threshold', count: 1, days: 7 } },
    });
    expect(badCount.ok).toBe(false);

    expect(await ok(e.dispatch('removeAlertRule', { id: saved.id }))).toEqual({ removed: true });
    expect((await ok(e.dispatch('listAlertRules', {}))).rules).toEqual([]);
  });

  it('tests a rule against the archive off the engine thread: a count asked meanwhile answers first (issue 31)', async () => {
    const e = await open();
    const area = await ok(e.dispatch('createArea', { name: 'Loop', shape: loop }));
    await ok(e.dispatch('runSync', { areaIds: [area.id] }));
    await ok(e.dispatch('countIncidents', { filters: { preset: 'all' } })); // the snapshot loads
    const rule = {
      name: 'Near repeats',
      areaId: area.id,
      condition: { kind: 'nearRepeat' as const, miles: 0.2, days: 14 },
    };
    const order: string[] = [];
    const tested = ok(e.dispatch('testAlertRule', { rule, days: 365 })).then((r) => {
      order.push('test');
      return r;
    });
    const counted = ok(e.dispatch('countIncidents', { filters: { preset: 'all' } })).then(() =>
      order.push('count'),
    );
    const [result] = await Promise.all([tested, counted]);
    // Tested on this thread, the test had answered before the count was even asked.
    expect(order).toEqual(['count', 'test']);
    expect(result.matched).toBeGreaterThan(0);
    expect(result.fired).toBeGreaterThan(0);
  });

  it('a sync that brings new incidents raises the alert once, announces it (alertsChanged) and the inbox counts it', async () => {
    const e = await open();
    const area = await ok(e.dispatch('createArea', { name: 'Loop', shape: loop }));
    await ok(e.dispatch('runSync', { areaIds: [area.id] })); // the first backfill: old news
    const rule = await ok(
      e.dispatch('addAlertRule', {
        rule: { name: 'New in the Loop', areaId: area.id, condition: { kind: 'any' } },
      }),
    );
    const deg = loop.radiusMi / 69 / Math.cos((loop.lat * Math.PI) / 180) / 1.5;
    const evolved = sim.evolve({
      add: 6,
      amend: 0,
      remove: 0,
      area: { lat: loop.lat, lon: loop.lon, radiusDeg: deg },
    });
    // evolve() also brings what occurred since the data was made, anywhere and maybe not yet reported
    // (more of it the longer the test has run): the alert owes only those in the area, reported now.
    const truth = new Set(
      sim.groundTruth({ lat: loop.lat, lon: loop.lon, radiusMi: loop.radiusMi }).map((t) => t.cdid),
    );
    const owed = evolved.added.filter((c) => truth.has(c));
    expect(owed.length).toBeGreaterThanOrEqual(6); // the six added inside the area
    events.length = 0;

    const result = await ok(e.dispatch('runSync', { areaIds: [area.id] }));
    const list = await ok(e.dispatch('listAlerts', { runIds: result.runs.map((r) => r.runId) }));
    expect(list.alerts).toHaveLength(1);
    const [alert] = list.alerts;
    expect(alert).toMatchObject({ ruleId: rule.id, ruleName: 'New in the Loop', read: false });
    expect(new Set(owed)).toEqual(new Set(alert!.cdids.filter((c) => owed.includes(c))));
    expect(list.unread).toBe(1);

    await new Promise((r) => setTimeout(r, 400)); // the change throttle's trailing event
    const announced = events.filter((ev) => ev.type === 'alertsChanged');
    expect(announced).toHaveLength(1);
    expect(announced[0]).toMatchObject({
      unread: 1,
      raised: [{ id: alert!.id, ruleName: 'New in the Loop', incidents: alert!.cdids.length }],
    });

    // A re-sync raises nothing new.
    await ok(e.dispatch('runSync', { areaIds: [area.id] }));
    expect((await ok(e.dispatch('listAlerts', {}))).alerts).toHaveLength(1);

    expect(await ok(e.dispatch('markAlertsRead', { ids: [alert!.id] }))).toEqual({ changed: 1, unread: 0 });
    expect((await ok(e.dispatch('listAlerts', {}))).unread).toBe(0);
  });

  it('keeps the webhook URL and mail password in the keychain, never in a view, and a new mail server needs the password again (web)', async () => {
    const e = await open();
    const url = 'https://hooks.example.com/services/T000/B000/secret-token';
    const view = await ok(e.dispatch('setAlertChannels', { webhook: { enabled: true, label: 'Team', url } }));
    expect(view.webhook).toEqual({ enabled: true, label: 'Team', urlStored: true });
    expect(JSON.stringify(view)).not.toContain('secret-token');
    expect(view.note).toMatch(/only while Blotter is open or a command-line sync runs/);

    const config = {
      host: 'smtp.example.com',
      user: 'analyst',
      from: 'a@example.com',
      to: ['b@example.com'],
    };
    const mail = await ok(
      e.dispatch('setAlertChannels', { email: { enabled: true, config, password: 'pw-123456' } }),
    );
    expect(mail.email).toMatchObject({ enabled: true, passwordStored: true, hostConfirmed: true });
    expect(JSON.stringify(mail)).not.toContain('pw-123456');
    expect(await secrets.get(`alert-webhook:${e.context.settings.profileId()}`)).toBe(url);

    const moved = await e.dispatch('setAlertChannels', {
      email: { enabled: true, config: { ...config, host: 'mail.elsewhere.net' } },
    });
    expect(moved.ok ? null : moved.error).toMatchObject({
      code: 'base_url_unconfirmed',
      message: /mail\.elsewhere\.net.*Enter the password again/,
    });
    const refused = await e.dispatch('confirmAlertEmailHost', {
      host: 'mail.elsewhere.net',
      port: 587,
      tls: 'starttls',
    });
    expect(refused.ok).toBe(false);
    // Re-entering the password with the new server is the confirmation.
    const again = await ok(
      e.dispatch('setAlertChannels', {
        email: { enabled: true, config: { ...config, host: 'mail.elsewhere.net' }, password: 'pw-123456' },
      }),
    );
    expect(again.email).toMatchObject({ hostConfirmed: true, config: { host: 'mail.elsewhere.net' } });
  });

  it('binds the mail password to the server’s whole address: another port or security needs it again, or Electron’s confirmation', async () => {
    const config = {
      host: '127.0.0.1',
      port: 2525,
      user: 'analyst',
      from: 'a@office.test',
      to: ['b@office.test'],
    };
    for (const host of ['web', 'electron'] as const) {
      const e = await open({ host });
      await ok(e.dispatch('setAlertChannels', { email: { enabled: true, config, password: 'pw-123456' } }));
      const movedTo: { port: number; tls: 'starttls' | 'tls' }[] = [
        { port: 2526, tls: 'starttls' },
        { port: 2525, tls: 'tls' },
      ];
      for (const moved of movedTo.map((to) => ({ ...config, ...to }))) {
        const refused = await e.dispatch('setAlertChannels', { email: { enabled: true, config: moved } });
        expect(refused.ok ? null : refused.error).toMatchObject({
          code: 'base_url_unconfirmed',
          message: new RegExp(
            `127\\.0\\.0\\.1:${moved.port} \\(${moved.tls === 'tls' ? 'TLS' : 'STARTTLS'}\\)`,
          ),
        });
      }
      const kept = await ok(e.dispatch('getAlertChannels', {}));
      expect(kept.email).toMatchObject({ hostConfirmed: true, config: { port: 2525, tls: 'starttls' } });

      const confirm = await e.dispatch('confirmAlertEmailHost', {
        host: '127.0.0.1',
        port: 2526,
        tls: 'starttls',
      });
      expect(confirm.ok).toBe(host === 'electron'); // the browser confirms by typing the password again
      const saved = await e.dispatch('setAlertChannels', {
        email: { enabled: true, config: { ...config, port: 2526 } },
      });
      expect(saved.ok).toBe(host === 'electron');
      // Back to the first port: that is a new address again now.
      const back = await e.dispatch('setAlertChannels', { email: { enabled: true, config } });
      expect(back.ok).toBe(host !== 'electron');
      await fx?.close();
      fx = null;
    }
  });
});

/**
 * electron-builder.yml is data: the fuses the packaged app is built with, checked against the
 * options electron-builder itself declares (its JSON schema), so a misspelt key cannot pass.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
const yaml = require('js-yaml') as { load(text: string): unknown };

const config = yaml.load(readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8')) as {
  electronFuses?: Record<string, unknown>;
  asar?: boolean;
  files?: string[];
};

describe('packaging: electron-builder config', () => {
  it('sets the Electron fuses that close Node and debugging doors and pin the app to its asar', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
    // The fuses that check the asar need one: packaging must not turn it off.
    expect(config.asar).not.toBe(false);
  });

  it('uses only fuse names electron-builder knows', () => {
    const schema = JSON.parse(readFileSync(require.resolve('app-builder-lib/scheme.json'), 'utf8')) as {
      definitions: Record<string, { properties: Record<string, unknown> }>;
    };
    const known = Object.keys(schema.definitions.FuseOptionsV1?.properties ?? {});
    expect(known.length).toBeGreaterThan(0);
    for (const name of Object.keys(config.electronFuses ?? {})) expect(known, name).toContain(name);
  });
});

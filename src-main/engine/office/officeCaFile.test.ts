/**
 * The `sslrootcert` path comes from the office address, which the Settings page writes: the engine
 * reads only a regular file of at most 1 MB that holds a PEM certificate. A FIFO (which would block
 * the engine for ever), /dev/zero (which would fill its memory) or any other file is refused with
 * the path named and without its content echoed.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OfficeUrlError, parseOfficeUrl, sslOption } from './officeUrl';

const dir = mkdtempSync(path.join(tmpdir(), 'office-ca-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const optionFor = (file: string) =>
  sslOption(
    parseOfficeUrl(`postgres://blotter@db.example.org/office?sslrootcert=${encodeURIComponent(file)}`),
  );

const refusal = (file: string): string => {
  try {
    optionFor(file);
  } catch (error) {
    expect(error).toBeInstanceOf(OfficeUrlError);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
};

describe('the CA file an address names', () => {
  it('reads a PEM certificate', () => {
    const pem = path.join(dir, 'ca.pem');
    writeFileSync(pem, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    expect(optionFor(pem)).toMatchObject({ rejectUnauthorized: true, ca: expect.stringContaining('BEGIN') });
  });

  it('refuses a FIFO without blocking, a device, a large or a non-certificate file, echoing none of it', () => {
    const fifo = path.join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    expect(refusal(fifo)).toMatch(/sslrootcert must name a PEM certificate file .* is not one/);
    expect(refusal('/dev/zero')).toMatch(/is not one/);
    const big = path.join(dir, 'big.pem');
    writeFileSync(big, `-----BEGIN CERTIFICATE-----\n${'A'.repeat(2 * 1024 * 1024)}`);
    expect(refusal(big)).toMatch(/is not one/);
    const secret = path.join(dir, 'secret.txt');
    writeFileSync(secret, 'hunter2-the-password');
    const said = refusal(secret);
    expect(said).toMatch(/is not one/);
    expect(said).not.toContain('hunter2');
    expect(refusal(path.join(dir, 'missing.pem'))).toMatch(/cannot be opened on this computer/);
  });
});

/**
 * The CA certificate a host chose for an office join: checked as an address's sslrootcert is,
 * copied into the data folder under a name from its content, and named in the address that is
 * stored; an upload is removed once copied, a dialog's file stays. Refusals say what to do and
 * echo nothing the file holds.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { uploadFileOf } from '../files/sources';
import { addressWithChosenCa } from './caCertificate';
import { OfficeUrlError, parseOfficeUrl, sslOption } from './officeUrl';

const root = mkdtempSync(path.join(tmpdir(), 'office-chosen-ca-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const PEM = '-----BEGIN CERTIFICATE-----\nMIIBtest\n-----END CERTIFICATE-----\n';
const URL_ = 'postgres://blotter@db.office.lan:5432/office';

function dataDir(): string {
  const dir = mkdtempSync(path.join(root, 'data-'));
  mkdirSync(path.join(dir, 'imports'));
  return dir;
}

function upload(dir: string, id: string, text: string): string {
  const file = uploadFileOf(dir, id);
  writeFileSync(file, text);
  return file;
}

describe('the office CA certificate a host chose', () => {
  it('copies an upload into the data folder and names the copy in the address', () => {
    const dir = dataDir();
    const sent = upload(dir, 'upload0123456789ab', PEM);
    const url = addressWithChosenCa(URL_, dir, { uploadId: 'upload0123456789ab', name: 'ca.pem' });
    const address = parseOfficeUrl(url);
    expect(address.tls).toBe('verify-full');
    expect(path.dirname(address.rootCertFile!)).toBe(dir);
    expect(path.basename(address.rootCertFile!)).toMatch(/^office-ca-[0-9a-f]{16}\.pem$/);
    expect(readFileSync(address.rootCertFile!, 'utf8')).toBe(PEM);
    expect(statSync(address.rootCertFile!).mode & 0o777).toBe(0o600);
    expect(sslOption(address)).toMatchObject({ rejectUnauthorized: true, ca: PEM });
    expect(existsSync(sent)).toBe(false);
  });

  it('asks for TLS on a loopback address, where no TLS is the default', () => {
    const dir = dataDir();
    upload(dir, 'upload0123456789gh', PEM);
    const url = addressWithChosenCa('postgres://blotter@127.0.0.1:5432/office', dir, {
      uploadId: 'upload0123456789gh',
    });
    expect(parseOfficeUrl(url)).toMatchObject({ tls: 'verify-full', host: '127.0.0.1' });
  });

  it('copies the file a dialog chose and leaves it where it is; another CA gets its own copy', () => {
    const dir = dataDir();
    const chosen = path.join(root, 'office-ca.pem');
    writeFileSync(chosen, PEM);
    const first = parseOfficeUrl(addressWithChosenCa(URL_, dir, { path: chosen })).rootCertFile;
    expect(existsSync(chosen)).toBe(true);
    writeFileSync(chosen, PEM.replace('MIIBtest', 'MIIBother'));
    const second = parseOfficeUrl(addressWithChosenCa(URL_, dir, { path: chosen })).rootCertFile;
    expect(second).not.toBe(first);
    expect(readFileSync(first!, 'utf8')).toBe(PEM);
  });

  it('refuses an upload that is not a certificate without echoing it, and keeps nothing', () => {
    const dir = dataDir();
    upload(dir, 'upload0123456789cd', 'hunter2-the-password');
    const refusal = (() => {
      try {
        addressWithChosenCa(URL_, dir, { uploadId: 'upload0123456789cd', name: 'notes.txt' });
      } catch (e) {
        expect(e).toBeInstanceOf(OfficeUrlError);
        return (e as Error).message;
      }
      throw new Error('expected a refusal');
    })();
    expect(refusal).toMatch(/notes\.txt is not a CA certificate file/);
    expect(refusal).not.toContain('hunter2');
    expect(refusal).not.toContain(dir);
    expect(existsSync(path.join(dir, 'office-ca'))).toBe(false);
  });

  it('refuses a second CA in the address, TLS turned off, and a choice the host never made', () => {
    const dir = dataDir();
    upload(dir, 'upload0123456789ef', PEM);
    const src = { uploadId: 'upload0123456789ef' };
    expect(() => addressWithChosenCa(`${URL_}?sslrootcert=/etc/ca.pem`, dir, src)).toThrow(/once/);
    expect(() =>
      addressWithChosenCa('postgres://blotter@127.0.0.1/office?sslmode=disable', dir, src),
    ).toThrow(/TLS/);
    expect(() => addressWithChosenCa(URL_, dir, { choose: true })).toThrow(/chosen by the host/);
  });
});

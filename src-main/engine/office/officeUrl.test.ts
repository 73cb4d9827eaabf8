import { describe, expect, test } from 'vitest';
import { OfficeUrlError, parseOfficeUrl } from './officeUrl';

describe('the office database address', () => {
  test('a password written in the URL is refused', () => {
    expect(() => parseOfficeUrl('postgres://blotter:hunter2@db.office.lan/blotter')).toThrow(/PGPASSWORD/);
  });

  test('TLS with a verified certificate everywhere but literal loopback', () => {
    expect(parseOfficeUrl('postgres://blotter@db.office.lan/blotter').tls).toBe('verify-full');
    expect(parseOfficeUrl('postgres://blotter@127.0.0.1:5433/blotter')).toMatchObject({
      tls: 'disable',
      port: 5433,
    });
    expect(() => parseOfficeUrl('postgres://blotter@db.office.lan/blotter?sslmode=disable')).toThrow(
      OfficeUrlError,
    );
    expect(parseOfficeUrl('postgres://blotter@localhost/blotter').tls).toBe('disable');
    expect(() => parseOfficeUrl('postgres://blotter@10.0.0.5/blotter?sslmode=disable')).toThrow(/loopback/);
    expect(() => parseOfficeUrl('postgres://blotter@db.office.lan/blotter?sslmode=require')).toThrow(
      /verify-full/,
    );
    expect(parseOfficeUrl('postgresql://blotter@[::1]/blotter?sslmode=verify-full').tls).toBe('verify-full');
  });

  test('the stored address says who, where and which database, and nothing else', () => {
    expect(
      parseOfficeUrl(' postgres://blotter@db.office.lan/archive?sslrootcert=/etc/office-ca.pem ').url,
    ).toBe('postgres://blotter@db.office.lan:5432/archive?sslrootcert=%2Fetc%2Foffice-ca.pem');
    expect(() => parseOfficeUrl('postgres://db.office.lan/archive')).toThrow(/user/);
    expect(() => parseOfficeUrl('mysql://a@b/c')).toThrow(/postgres/);
    expect(() => parseOfficeUrl('postgres://a@b/c?options=-c%20x')).toThrow(/unknown parameter/);
  });
});

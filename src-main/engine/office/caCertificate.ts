/**
 * The office CA certificate a host chose for a join (Electron's open dialog, or a web upload): read
 * with the same checks as an address's `sslrootcert` (a regular file of at most 1 MB holding a PEM
 * certificate), copied into the data folder as office-ca-<hash>.pem (0600; named by its content so
 * a failed join with another CA never changes the file a joined address reads), and named in the
 * address the join stores. The page only ever sends an upload's id or asks the host to choose.
 */
import { createHash } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ImportSource } from '../../../src-shared/exports';
import { openSource } from '../files/sources';
import { OfficeUrlError, parseOfficeUrl, readRootCert } from './officeUrl';

export type ChosenCaFile = ImportSource | { choose: true };

/** The join's address with the chosen CA certificate's copy as its `sslrootcert`. */
export function addressWithChosenCa(url: string, dataDir: string, chosen: ChosenCaFile): string {
  if ('choose' in chosen)
    throw new OfficeUrlError('The CA certificate file is chosen by the host (its open dialog or an upload).');
  if (parseOfficeUrl(url).rootCertFile)
    throw new OfficeUrlError(
      'Give the CA certificate once: as the chosen file, or sslrootcert in the address.',
    );
  // A loopback address defaults to no TLS; a chosen CA asks for TLS unless the address turns it off.
  if (new URL(url.trim()).searchParams.get('sslmode') === 'disable')
    throw new OfficeUrlError('A CA certificate is for TLS (verify-full); this address turns TLS off.');
  const source = openSource(dataDir, chosen);
  let pem: string;
  try {
    pem = readRootCert(source.file);
  } catch (e) {
    if (!(e instanceof OfficeUrlError) || !source.uploaded) throw e;
    throw new OfficeUrlError(
      `${source.name} is not a CA certificate file: choose its PEM file (-----BEGIN CERTIFICATE-----, at most 1 MB).`,
    );
  }
  const copy = path.join(
    dataDir,
    `office-ca-${createHash('sha256').update(pem).digest('hex').slice(0, 16)}.pem`,
  );
  const partial = `${copy}.partial`;
  writeFileSync(partial, pem, { mode: 0o600 });
  renameSync(partial, copy);
  // An upload has done its work; a file the Electron dialog chose stays where it is.
  if (source.uploaded) rmSync(source.file, { force: true });
  const u = new URL(url.trim());
  u.searchParams.set('sslmode', 'verify-full');
  u.searchParams.set('sslrootcert', copy);
  return u.toString();
}

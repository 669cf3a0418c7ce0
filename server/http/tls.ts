/**
 * HTTPS on request (issue 6; spec: "All requests are made over HTTPS", and some clients insist).
 * A self-signed certificate for localhost, 127.0.0.1 and ::1 is generated on first use with the
 * well-kept `selfsigned` package (Node cannot make X.509 certificates itself) and kept in the
 * data folder, so a user can trust it once.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface LocalCertificate {
  key: string;
  cert: string;
  certFile: string;
  created: boolean;
}

export async function localCertificate(dataDir: string): Promise<LocalCertificate> {
  const dir = join(dataDir, 'tls');
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  if (existsSync(certFile) && existsSync(keyFile)) {
    return { key: await readFile(keyFile, 'utf8'), cert: await readFile(certFile, 'utf8'), certFile, created: false };
  }
  const notBeforeDate = new Date(Date.now() - 60_000);
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    // 825 days: the longest validity browsers accept for a leaf certificate.
    notAfterDate: new Date(notBeforeDate.getTime() + 825 * 24 * 3600 * 1000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  await mkdir(dir, { recursive: true });
  await writeFile(keyFile, pems.private, { mode: 0o600 });
  await writeFile(certFile, pems.cert);
  return { key: pems.private, cert: pems.cert, certFile, created: true };
}

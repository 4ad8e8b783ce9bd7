/**
 * The serving pair in the cert dir (`cert.pem`, `key.pem`), handed to the TLS server whenever it
 * changes on disk: the certificate controller (this or another process) rewrites the files.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export interface ServingPair { certPem: string; keyPem: string }

export const servingCertFile = 'cert.pem';
export const servingKeyFile = 'key.pem';

export class CertFiles {
  private current?: ServingPair;

  constructor(private readonly dir: string, private readonly apply: (pair: ServingPair) => void) {}

  /** Reads the pair; applies it when it differs from the one in use. True when a pair is in use. */
  async reload(): Promise<boolean> {
    const [certPem, keyPem] = await Promise.all([
      readFile(path.join(this.dir, servingCertFile), 'utf8'),
      readFile(path.join(this.dir, servingKeyFile), 'utf8'),
    ]);
    if (this.current?.certPem !== certPem || this.current?.keyPem !== keyPem) {
      this.apply({ certPem, keyPem }); // throws on a mismatched or half-written pair: the old one stays
      this.current = { certPem, keyPem };
    }
    return true;
  }
}

/**
 * Where the webhook certificates live (docs/design/webhooks.md §4). The Secret writer keeps them
 * in Secret `<secretName>` (keys ca-key.pem, ca-cert.pem, key.pem, cert.pem, tls.key, tls.crt) so
 * every replica serves the same pair: it reuses what is valid, and a lost create/update race is
 * retried against the winner's Secret. The fs writer keeps them only in the cert dir. Both always
 * write the cert dir, which the HTTPS server reloads.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { KObject } from '../../api/meta.js';
import { Secrets } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { retryOnConflict } from '../../client/retry.js';
import { isAlreadyExists, isNotFound, StatusError } from '../../machinery/errors.js';
import { ensureArtifacts, type ArtifactOptions, type WebhookCerts } from './artifacts.js';

export interface CertWriter {
  /** Makes sure valid certificates exist (minting what is missing), writes the cert dir, returns them. */
  ensure(): Promise<WebhookCerts>;
}

const fileNames: Record<string, keyof WebhookCerts> = {
  'ca-key.pem': 'caKeyPem', 'ca-cert.pem': 'caCertPem', 'key.pem': 'keyPem', 'cert.pem': 'certPem', 'tls.key': 'keyPem', 'tls.crt': 'certPem',
};

export function createFsCertWriter(options: ArtifactOptions & { certDir: string }): CertWriter {
  return {
    async ensure() {
      const { certs, changed } = await ensureArtifacts(await readCertDir(options.certDir), options);
      if (changed) await writeCertDir(options.certDir, certs);
      return certs;
    },
  };
}

export interface SecretCertWriterOptions extends ArtifactOptions {
  client: Client;
  namespace: string;
  secretName: string;
  certDir: string;
}

export function createSecretCertWriter(options: SecretCertWriterOptions): CertWriter {
  const { client, namespace, secretName } = options;
  const once = async (): Promise<WebhookCerts> => {
    const secret = await client.get(Secrets, namespace, secretName).catch((e: unknown) => {
      if (isNotFound(e)) return undefined;
      throw e;
    });
    const { certs, changed } = await ensureArtifacts(secret && fromSecretData(secret), options);
    if (!changed) return certs;
    const data = toSecretData(certs);
    if (!secret) {
      await client.create(Secrets, { apiVersion: 'v1', kind: 'Secret', metadata: { name: secretName, namespace }, type: 'Opaque', data }).catch((e: unknown) => {
        // Another replica created it first: retry, which reuses its certificates.
        if (isAlreadyExists(e)) throw new StatusError(409, 'Conflict', (e as Error).message);
        throw e;
      });
    } else {
      await client.update(Secrets, { ...secret, data: { ...(secret.data as Record<string, string> | undefined), ...data } });
    }
    return certs;
  };
  return {
    async ensure() {
      const certs = await retryOnConflict(once, { attempts: 5, backoffMs: 50 });
      if (!sameAs(await readCertDir(options.certDir), certs)) await writeCertDir(options.certDir, certs);
      return certs;
    },
  };
}

function fromSecretData(secret: KObject): Partial<WebhookCerts> {
  const data = (secret.data ?? {}) as Record<string, string>;
  const text = (key: string) => (data[key] ? Buffer.from(data[key], 'base64').toString('utf8') : undefined);
  return { caKeyPem: text('ca-key.pem'), caCertPem: text('ca-cert.pem'), keyPem: text('key.pem'), certPem: text('cert.pem') };
}

function toSecretData(certs: WebhookCerts): Record<string, string> {
  return Object.fromEntries(Object.entries(fileNames).map(([file, key]) => [file, Buffer.from(certs[key]).toString('base64')]));
}

async function readCertDir(dir: string): Promise<Partial<WebhookCerts>> {
  const read = (name: string) => readFile(path.join(dir, name), 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return undefined;
    throw e;
  });
  const [caKeyPem, caCertPem, keyPem, certPem] = await Promise.all(['ca-key.pem', 'ca-cert.pem', 'key.pem', 'cert.pem'].map(read));
  return { caKeyPem, caCertPem, keyPem, certPem };
}

function sameAs(files: Partial<WebhookCerts>, certs: WebhookCerts): boolean {
  return files.caCertPem === certs.caCertPem && files.caKeyPem === certs.caKeyPem && files.certPem === certs.certPem && files.keyPem === certs.keyPem;
}

/** Write-then-rename per file: a reader sees whole files (a new cert with the old key fails to load and is retried). */
async function writeCertDir(dir: string, certs: WebhookCerts): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const order = ['ca-cert.pem', 'ca-key.pem', 'tls.crt', 'tls.key', 'cert.pem', 'key.pem'];
  for (const file of order) {
    const target = path.join(dir, file);
    const tmp = `${target}.${process.pid}.tmp`;
    await writeFile(tmp, certs[fileNames[file]], { mode: file.includes('key') ? 0o600 : 0o644 });
    await rename(tmp, target);
  }
}

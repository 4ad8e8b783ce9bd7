/**
 * The self-signed webhook certificate artefacts (docs/design/webhooks.md §4): a CA
 * (`webhook-cert-ca`, reused while valid for one more year) and a serving pair for `localhost` plus
 * the webhook DNS name (an IP SAN when the host is an IP literal), valid 10 years and reissued when
 * it would not verify for the DNS name at now + renewBefore.
 */
import { X509Certificate } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { certificateCoversHosts, certificateValidAt, isIssuedPairUsable, type KeyAlgorithm } from '../../machinery/certs.js';
import type { MintRequest, Minted } from './mint-worker.js';

export interface WebhookCerts {
  caCertPem: string;
  caKeyPem: string;
  certPem: string;
  keyPem: string;
}

export interface ArtifactOptions {
  /** `$WEBHOOK_HOST` or `<service>.<namespace>.svc`. */
  dnsName: string;
  /** Reissue the serving certificate this long before it expires (default about 6 months). */
  renewBeforeMs?: number;
  /** RSA 2048 as upstream (default); ECDSA P-256 is ~50x faster to mint (tests, `kruise up`). */
  algorithm?: KeyAlgorithm;
  now?: () => Date;
}

export const caCommonName = 'webhook-cert-ca';
const DAY_MS = 24 * 60 * 60 * 1000;
export const defaultRenewBeforeMs = 182 * DAY_MS;

/** Reuses what is still good in `existing` and mints the rest; `changed` says whether anything was minted. */
export async function ensureArtifacts(existing: Partial<WebhookCerts> | undefined, options: ArtifactOptions): Promise<{ certs: WebhookCerts; changed: boolean }> {
  const now = options.now?.() ?? new Date();
  const algorithm = options.algorithm ?? 'rsa-2048';
  const found = existing?.caCertPem && existing.caKeyPem ? { certPem: existing.caCertPem, keyPem: existing.caKeyPem } : undefined;
  const ca = found && isIssuedPairUsable(found, found, 365, now) ? found : undefined;
  const serving = existing?.certPem && existing.keyPem ? { certPem: existing.certPem, keyPem: existing.keyPem } : undefined;
  if (ca && serving && servingStillGood(serving, ca, options, now)) {
    return { certs: { caCertPem: ca.certPem, caKeyPem: ca.keyPem, certPem: serving.certPem, keyPem: serving.keyPem }, changed: false };
  }
  const minted = await mintInWorker({ ca, algorithm, dnsName: options.dnsName });
  return { certs: { caCertPem: minted.ca.certPem, caKeyPem: minted.ca.keyPem, certPem: minted.serving.certPem, keyPem: minted.serving.keyPem }, changed: true };
}

/** Mints in a thread of its own, whose heap (the X.509 libraries) goes when it ends (mint-worker.ts). */
function mintInWorker(request: MintRequest): Promise<Minted> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./mint-worker.js', import.meta.url), { workerData: { mintWebhookCerts: request }, execArgv: [] });
    worker.once('message', (m: { minted?: Minted; error?: string }) => {
      if (m.minted) resolve(m.minted);
      else reject(new Error(`minting the webhook certificates: ${m.error}`));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the certificate minting thread exited with code ${code}`)));
  });
}

function servingStillGood(serving: { certPem: string; keyPem: string }, ca: { certPem: string; keyPem: string }, options: ArtifactOptions, now: Date): boolean {
  const renewAt = new Date(now.getTime() + (options.renewBeforeMs ?? defaultRenewBeforeMs));
  try {
    return isIssuedPairUsable(serving, ca, 0, now) && certificateValidAt(new X509Certificate(serving.certPem), renewAt)
      && certificateCoversHosts(serving.certPem, ['localhost', options.dnsName]);
  } catch {
    return false;
  }
}

/**
 * The webhook certificates are minted in a worker thread (artifacts.ts): @peculiar/x509 and its
 * ASN.1 stack, about 3 MiB of heap once loaded, then go away with the thread instead of staying in
 * the manager for its whole life (docs/design/performance.md §18).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { generateCA, issueServingCert, type KeyAlgorithm, type KeyPair } from '../../machinery/certs.js';
import { caCommonName } from './artifacts.js';

export interface MintRequest {
  /** A CA still good to sign with; otherwise a new one is made. */
  ca?: KeyPair;
  algorithm: KeyAlgorithm;
  dnsName: string;
}

export interface Minted { ca: KeyPair; serving: KeyPair }

async function mint({ ca: usable, algorithm, dnsName }: MintRequest): Promise<Minted> {
  const ca = usable ?? await generateCA(caCommonName, { algorithm, days: 3650 });
  const serving = await issueServingCert(ca, ['localhost', dnsName], { algorithm, days: 3650, commonName: dnsName });
  return { ca, serving };
}

if (parentPort && (workerData as { mintWebhookCerts?: MintRequest } | undefined)?.mintWebhookCerts) {
  const port = parentPort;
  mint((workerData as { mintWebhookCerts: MintRequest }).mintWebhookCerts).then(
    (minted) => port.postMessage({ minted }),
    (e: Error) => port.postMessage({ error: e.message }),
  );
}

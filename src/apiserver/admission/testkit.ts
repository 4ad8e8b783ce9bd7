/**
 * Test kit: a small HTTPS webhook server on 127.0.0.1 with its own CA, answering per path with a
 * handler, and recording every review it receives. Also builders for webhook configurations.
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { KObject } from '../../api/meta.js';
import type { AdmissionReview } from '../../api/admission.js';
import { generateCA, issueServingCert } from '../auth/pki.js';

export type ReviewHandler = (review: AdmissionReview & Record<string, unknown>) => unknown | Promise<unknown>;

export interface TestWebhookServer {
  port: number;
  /** Base URL, `https://127.0.0.1:<port>`. */
  url: string;
  /** base64 PEM of the CA that signed the serving certificate. */
  caBundle: string;
  /** Reviews received per path (query string stripped). */
  received: Map<string, (AdmissionReview & Record<string, unknown>)[]>;
  /** Query strings received per path (`timeout=10s`). */
  queries: Map<string, string[]>;
  handle(path: string, handler: ReviewHandler): void;
  reviews(path: string): (AdmissionReview & Record<string, unknown>)[];
  close(): Promise<void>;
}

export async function startTestWebhookServer(dnsNames: string[] = []): Promise<TestWebhookServer> {
  const ca = await generateCA('webhook-test-ca');
  const serving = await issueServingCert(ca, ['127.0.0.1', ...dnsNames]);
  const handlers = new Map<string, ReviewHandler>();
  const received = new Map<string, (AdmissionReview & Record<string, unknown>)[]>();
  const queries = new Map<string, string[]>();
  const server = https.createServer({ cert: serving.certPem, key: serving.keyPem, keepAliveTimeout: 30_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const [path, query = ''] = (req.url ?? '/').split('?');
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as AdmissionReview & Record<string, unknown>;
      if (!received.has(path)) received.set(path, []);
      if (!queries.has(path)) queries.set(path, []);
      received.get(path)!.push(review);
      queries.get(path)!.push(query);
      const handler = handlers.get(path);
      Promise.resolve(handler ? handler(review) : undefined).then((answer) => {
        if (res.destroyed) return;
        if (answer === undefined) {
          res.writeHead(404).end('no handler');
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      }, (err: Error) => res.writeHead(500).end(err.message));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port, url: `https://127.0.0.1:${port}`, caBundle: Buffer.from(ca.certPem).toString('base64'), received, queries,
    handle: (path, handler) => { handlers.set(path, handler); },
    reviews: (path) => received.get(path) ?? [],
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** An AdmissionReview answer; `patch` is a JSON Patch array. */
export function admissionAnswer(review: AdmissionReview, response: { allowed?: boolean; patch?: unknown[]; status?: Record<string, unknown>; warnings?: string[] } = {}): AdmissionReview {
  const { patch, allowed = true, ...rest } = response;
  return {
    apiVersion: review.apiVersion, kind: 'AdmissionReview',
    response: {
      uid: review.request!.uid, allowed, ...rest,
      ...(patch ? { patch: Buffer.from(JSON.stringify(patch)).toString('base64'), patchType: 'JSONPatch' as const } : {}),
    },
  };
}

export interface HookSpec {
  name: string;
  clientConfig: Record<string, unknown>;
  rules: { operations: string[]; apiGroups: string[]; apiVersions: string[]; resources: string[]; scope?: string }[];
  [field: string]: unknown;
}

export function webhookConfiguration(kind: 'MutatingWebhookConfiguration' | 'ValidatingWebhookConfiguration', name: string, hooks: HookSpec[]): KObject {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name },
    webhooks: hooks.map((h) => ({ sideEffects: 'None', admissionReviewVersions: ['v1'], ...h })),
  };
}

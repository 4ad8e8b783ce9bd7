/** Webhook certificates: self-signed artefacts and the Secret / cert-dir writers. */
export { caCommonName, defaultRenewBeforeMs, ensureArtifacts, type ArtifactOptions, type WebhookCerts } from './artifacts.js';
export { createFsCertWriter, createSecretCertWriter, type CertWriter, type SecretCertWriterOptions } from './writers.js';

/** `CERTS_RENEW_BEFORE`: `<n>d`, `<n>m` (months) or `<n>y`. */
export function parseRenewBefore(text: string): number {
  const m = /^(\d+)([dmy])$/.exec(text.trim());
  if (!m) throw new Error(`invalid CERTS_RENEW_BEFORE ${JSON.stringify(text)}: expected <n>d, <n>m or <n>y`);
  const days = { d: 1, m: 30, y: 365 }[m[2] as 'd' | 'm' | 'y'] * Number(m[1]);
  return days * 24 * 60 * 60 * 1000;
}

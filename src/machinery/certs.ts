/**
 * X.509 building blocks shared by the embedded API server's PKI and the manager's webhook
 * certificates: self-signed CAs, serving and client certificates (@peculiar/x509 on Node's
 * WebCrypto), and checks that a stored pair is still usable. Keys are ECDSA P-256 (fast) unless
 * RSA 2048 is asked for (what OpenKruise's webhook certificates use).
 */
import { X509Certificate as NodeX509, createPrivateKey } from 'node:crypto';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import type * as X509 from '@peculiar/x509';

export interface KeyPair {
  certPem: string;
  /** PKCS#8 PEM ("PRIVATE KEY"). */
  keyPem: string;
}

export type KeyAlgorithm = 'ecdsa-p256' | 'rsa-2048';

export interface CertOptions {
  algorithm?: KeyAlgorithm;
  /** Lifetime in days (CA default 3650, leaf default 365). */
  days?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const ECDSA = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const RSA = { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' } as const;
const algorithmParams = (a: KeyAlgorithm) => (a === 'rsa-2048' ? RSA : ECDSA);

let x509Module: typeof X509 | undefined;
/**
 * @peculiar/x509 and its ASN.1 stack (about 3 MiB of heap) load on first use: a manager whose
 * certificates are still good only checks them, with node:crypto (docs/design/performance.md §15).
 */
function x509(): typeof X509 {
  if (x509Module) return x509Module;
  installReflectMetadata();
  // Loaded after the polyfill on purpose: @peculiar/x509 pulls in tsyringe, which throws at import
  // time unless Reflect.getMetadata exists (the reflect-metadata package is not imported here).
  const lib = createRequire(import.meta.url)('@peculiar/x509') as typeof X509;
  lib.cryptoProvider.set(globalThis.crypto);
  return (x509Module = lib);
}

export async function generateCA(commonName: string, options: CertOptions = {}): Promise<KeyPair> {
  const lib = x509();
  const params = algorithmParams(options.algorithm ?? 'ecdsa-p256');
  const keys = await generateKeys(params);
  const cert = await lib.X509CertificateGenerator.createSelfSigned({
    name: [{ CN: [commonName] }],
    ...validity(options.days ?? 3650),
    keys,
    signingAlgorithm: params,
    extensions: [
      new lib.BasicConstraintsExtension(true, undefined, true),
      new lib.KeyUsagesExtension(
        lib.KeyUsageFlags.keyCertSign | lib.KeyUsageFlags.cRLSign | lib.KeyUsageFlags.digitalSignature,
        true,
      ),
      await lib.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return toKeyPair(cert, keys.privateKey);
}

/** Serving certificate: IPs become IP SANs, everything else DNS SANs (Go ignores the CN). */
export async function issueServingCert(
  ca: KeyPair,
  hosts: string[],
  options: CertOptions & { commonName?: string } = {},
): Promise<KeyPair> {
  if (hosts.length === 0) throw new Error('issueServingCert: at least one host is required');
  const lib = x509();
  const names = hosts.map((h) => ({ type: isIP(h) ? ('ip' as const) : ('dns' as const), value: h }));
  return issue(ca, [{ CN: [options.commonName ?? hosts[0]] }], lib.ExtendedKeyUsage.serverAuth, options, [
    new lib.SubjectAlternativeNameExtension(names),
  ]);
}

/** Client certificate in Kubernetes' convention: CN is the user, each O a group. */
export async function issueClientCert(ca: KeyPair, user: string, groups: string[], options: CertOptions = {}): Promise<KeyPair> {
  if (!user) throw new Error('issueClientCert: user must not be empty');
  const lib = x509();
  const subject: X509.JsonName = [...groups.map((g) => ({ O: [g] })), { CN: [user] }];
  return issue(ca, subject, lib.ExtendedKeyUsage.clientAuth, options, []);
}

async function issue(
  ca: KeyPair,
  subject: X509.JsonName,
  usage: X509.ExtendedKeyUsage,
  options: CertOptions,
  extra: X509.Extension[],
): Promise<KeyPair> {
  const lib = x509();
  const caCert = new lib.X509Certificate(ca.certPem);
  const signer = await importSigningKey(ca.keyPem);
  const params = algorithmParams(options.algorithm ?? 'ecdsa-p256');
  const keys = await generateKeys(params);
  // RSA key exchange (TLS 1.2 without ECDHE) also needs keyEncipherment.
  const keyUsage = lib.KeyUsageFlags.digitalSignature | (params === RSA ? lib.KeyUsageFlags.keyEncipherment : 0);
  const cert = await lib.X509CertificateGenerator.create({
    subject,
    // The parsed Name re-encodes byte for byte; Go looks parents up by the raw issuer bytes.
    issuer: caCert.subjectName,
    ...validity(options.days ?? 365),
    publicKey: keys.publicKey,
    signingKey: signer.key,
    signingAlgorithm: signer.algorithm,
    extensions: [
      new lib.BasicConstraintsExtension(false, undefined, true),
      new lib.KeyUsagesExtension(keyUsage, true),
      new lib.ExtendedKeyUsageExtension([usage]),
      await lib.AuthorityKeyIdentifierExtension.create(caCert.publicKey),
      await lib.SubjectKeyIdentifierExtension.create(keys.publicKey),
      ...extra,
    ],
  });
  return toKeyPair(cert, keys.privateKey);
}

/** The CN and O values of a DER certificate's subject. */
export function certificateSubject(der: Uint8Array<ArrayBuffer>): { commonName?: string; organizations: string[] } {
  const subject = new (x509().X509Certificate)(der).subjectName;
  return { commonName: subject.getField('CN')[0], organizations: subject.getField('O') };
}

/** True when the certificate's SANs cover every host (IPs and DNS names). */
export function certificateCoversHosts(certPem: string, hosts: string[]): boolean {
  const cert = new NodeX509(certPem);
  return hosts.every((h) =>
    isIP(h) ? cert.checkIP(h) !== undefined : cert.checkHost(h, { subject: 'never' }) !== undefined,
  );
}

/** True when `pair` was signed by `ca`, its key matches, and it is valid for `minDays` more days. */
export function isIssuedPairUsable(pair: KeyPair, ca: KeyPair, minDays: number, now = new Date()): boolean {
  try {
    const cert = new NodeX509(pair.certPem);
    const caCert = parsedCertificate(ca.certPem);
    const later = new Date(now.getTime() + minDays * DAY_MS);
    return (
      cert.checkIssued(caCert) &&
      cert.verify(caCert.publicKey) &&
      cert.checkPrivateKey(createPrivateKey(pair.keyPem)) &&
      certificateValidAt(cert, now) &&
      certificateValidAt(cert, later)
    );
  } catch {
    return false;
  }
}

export function certificateValidAt(cert: NodeX509, at: Date): boolean {
  const from = Date.parse(cert.validFrom);
  const to = Date.parse(cert.validTo);
  return Number.isFinite(from) && Number.isFinite(to) && at.getTime() >= from && at.getTime() <= to;
}

const parsed = new Map<string, NodeX509>();
/** A parsed certificate, cached: CAs are checked on every request. */
export function parsedCertificate(pem: string): NodeX509 {
  let cert = parsed.get(pem);
  if (!cert) {
    cert = new NodeX509(pem);
    if (parsed.size >= 16) parsed.clear(); // a handful of CAs per process at most
    parsed.set(pem, cert);
  }
  return cert;
}

function validity(days: number): { notBefore: Date; notAfter: Date } {
  const now = Date.now();
  // Backdated a little so a client whose clock runs slightly behind still accepts the cert.
  return { notBefore: new Date(now - 60 * 60 * 1000), notAfter: new Date(now + days * DAY_MS) };
}

async function generateKeys(params: typeof ECDSA | typeof RSA): Promise<CryptoKeyPair> {
  return globalThis.crypto.subtle.generateKey(params, true, ['sign', 'verify']);
}

/** The CA key as a WebCrypto signing key, with the signature algorithm that goes with it. */
async function importSigningKey(keyPem: string): Promise<{ key: CryptoKey; algorithm: typeof ECDSA | typeof RSA }> {
  const details = createPrivateKey(keyPem);
  const der = details.export({ type: 'pkcs8', format: 'der' });
  if (details.asymmetricKeyType === 'ec' && details.asymmetricKeyDetails?.namedCurve === 'prime256v1') {
    return { key: await globalThis.crypto.subtle.importKey('pkcs8', der, ECDSA, false, ['sign']), algorithm: ECDSA };
  }
  if (details.asymmetricKeyType === 'rsa') {
    return { key: await globalThis.crypto.subtle.importKey('pkcs8', der, RSA, false, ['sign']), algorithm: RSA };
  }
  throw new Error('CA key must be an ECDSA P-256 or an RSA key');
}

async function toKeyPair(cert: X509.X509Certificate, privateKey: CryptoKey): Promise<KeyPair> {
  const pkcs8 = await globalThis.crypto.subtle.exportKey('pkcs8', privateKey);
  return { certPem: cert.toString('pem') + '\n', keyPem: x509().PemConverter.encode(pkcs8, 'PRIVATE KEY') + '\n' };
}

/**
 * Minimal stand-in for the reflect-metadata polyfill (only what tsyringe calls); left alone when a
 * real polyfill is already loaded.
 */
function installReflectMetadata(): void {
  type Target = object;
  type Prop = string | symbol | undefined;
  const reflect = Reflect as unknown as Record<string, unknown>;
  if (typeof reflect.getMetadata === 'function') return;
  const store = new WeakMap<Target, Map<Prop, Map<unknown, unknown>>>();
  const own = (target: Target, prop: Prop) => store.get(target)?.get(prop);
  reflect.getOwnMetadata = (key: unknown, target: Target, prop?: Prop) => own(target, prop)?.get(key);
  reflect.getMetadata = (key: unknown, target: Target, prop?: Prop) => {
    for (let t: Target | null = target; t; t = Object.getPrototypeOf(t) as Target | null) {
      const found = own(t, prop);
      if (found?.has(key)) return found.get(key);
    }
    return undefined;
  };
  reflect.defineMetadata = (key: unknown, value: unknown, target: Target, prop?: Prop) => {
    const byProp = store.get(target) ?? new Map<Prop, Map<unknown, unknown>>();
    store.set(target, byProp);
    const entries = byProp.get(prop) ?? new Map<unknown, unknown>();
    byProp.set(prop, entries);
    entries.set(key, value);
  };
}

/**
 * Certificates for the embedded API server: a CA, a serving certificate and client certificates,
 * made with @peculiar/x509 on Node's WebCrypto. Keys are ECDSA P-256: fast to generate and accepted
 * by Go's crypto/tls (kubectl). Checking a presented client certificate is synchronous (node:crypto)
 * because it runs on every request.
 */
import { X509Certificate as NodeX509, createPrivateKey, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import path from 'node:path';
import type * as X509 from '@peculiar/x509';

export interface KeyPair {
  certPem: string;
  /** PKCS#8 PEM ("PRIVATE KEY"). */
  keyPem: string;
}

const KEY_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING_ALGORITHM = { name: 'ECDSA', hash: 'SHA-256' } as const;
const CLIENT_AUTH_OID = '1.3.6.1.5.5.7.3.2';
const ANY_EKU_OID = '2.5.29.37.0';
const DAY_MS = 24 * 60 * 60 * 1000;
/** Reissue a leaf certificate this many days before it expires. */
const RENEW_DAYS = 30;

installReflectMetadata();
// Loaded after the polyfill on purpose: @peculiar/x509 pulls in tsyringe, which throws at import
// time unless Reflect.getMetadata exists (the reflect-metadata package is not a dependency).
const x509: typeof X509 = await import('@peculiar/x509');
x509.cryptoProvider.set(globalThis.crypto);

export async function generateCA(commonName: string): Promise<KeyPair> {
  const keys = await generateKeys();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: [{ CN: [commonName] }],
    ...validity(3650),
    keys,
    signingAlgorithm: SIGNING_ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature,
        true,
      ),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return toKeyPair(cert, keys.privateKey);
}

/** Serving certificate: IPs become IP SANs, everything else DNS SANs (Go ignores the CN). */
export async function issueServingCert(ca: KeyPair, hosts: string[]): Promise<KeyPair> {
  if (hosts.length === 0) throw new Error('issueServingCert: at least one host is required');
  const names = hosts.map((h) => ({ type: isIP(h) ? ('ip' as const) : ('dns' as const), value: h }));
  return issue(ca, [{ CN: ['kube-apiserver'] }], x509.ExtendedKeyUsage.serverAuth, [
    new x509.SubjectAlternativeNameExtension(names),
  ]);
}

/** Client certificate in Kubernetes' convention: CN is the user, each O a group. */
export async function issueClientCert(ca: KeyPair, user: string, groups: string[]): Promise<KeyPair> {
  if (!user) throw new Error('issueClientCert: user must not be empty');
  const subject: X509.JsonName = [...groups.map((g) => ({ O: [g] })), { CN: [user] }];
  return issue(ca, subject, x509.ExtendedKeyUsage.clientAuth, []);
}

async function issue(
  ca: KeyPair,
  subject: X509.JsonName,
  usage: X509.ExtendedKeyUsage,
  extra: X509.Extension[],
): Promise<KeyPair> {
  const caCert = new x509.X509Certificate(ca.certPem);
  const caKey = await importSigningKey(ca.keyPem);
  const keys = await generateKeys();
  const cert = await x509.X509CertificateGenerator.create({
    subject,
    // The parsed Name re-encodes byte for byte; Go looks parents up by the raw issuer bytes.
    issuer: caCert.subjectName,
    ...validity(365),
    publicKey: keys.publicKey,
    signingKey: caKey,
    signingAlgorithm: SIGNING_ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([usage]),
      await x509.AuthorityKeyIdentifierExtension.create(caCert.publicKey),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      ...extra,
    ],
  });
  return toKeyPair(cert, keys.privateKey);
}

export interface ServerPki {
  ca: KeyPair;
  serving: KeyPair;
  admin: KeyPair;
  adminToken: string;
}

/**
 * Keeps the server's PKI under `dir/pki/` and reuses it across restarts so kubeconfigs stay
 * valid. A missing or expiring CA is regenerated (which reissues everything); a leaf is reissued
 * when it is missing, not from this CA, expiring, or (serving) does not cover `options.hosts`.
 */
export async function loadOrCreatePki(dir: string, options: { hosts: string[] }): Promise<ServerPki> {
  const pkiDir = path.join(dir, 'pki');
  await mkdir(pkiDir, { recursive: true, mode: 0o700 });
  let ca = await readPair(pkiDir, 'ca');
  if (!ca || !isIssuedPairUsable(ca, ca, 365)) {
    ca = await generateCA('kruise-ca');
    await writePair(pkiDir, 'ca', ca);
  }
  let serving = await readPair(pkiDir, 'apiserver');
  const servingOk = serving && isIssuedPairUsable(serving, ca, RENEW_DAYS);
  if (!serving || !servingOk || !certificateCoversHosts(serving.certPem, options.hosts)) {
    serving = await issueServingCert(ca, options.hosts);
    await writePair(pkiDir, 'apiserver', serving);
  }
  let admin = await readPair(pkiDir, 'admin');
  if (!admin || !isIssuedPairUsable(admin, ca, RENEW_DAYS)) {
    admin = await issueClientCert(ca, 'admin', ['system:masters']);
    await writePair(pkiDir, 'admin', admin);
  }
  let adminToken = (await readOptional(path.join(pkiDir, 'token')))?.trim();
  if (!adminToken) {
    adminToken = randomBytes(32).toString('base64url');
    await writeAtomic(path.join(pkiDir, 'token'), adminToken + '\n', 0o600);
  }
  return { ca, serving, admin, adminToken };
}

async function readPair(pkiDir: string, name: string): Promise<KeyPair | undefined> {
  const certPem = await readOptional(path.join(pkiDir, `${name}.crt`));
  const keyPem = await readOptional(path.join(pkiDir, `${name}.key`));
  return certPem && keyPem ? { certPem, keyPem } : undefined;
}

async function writePair(pkiDir: string, name: string, pair: KeyPair): Promise<void> {
  await writeAtomic(path.join(pkiDir, `${name}.key`), pair.keyPem, 0o600);
  await writeAtomic(path.join(pkiDir, `${name}.crt`), pair.certPem, 0o644);
}

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Write-then-rename, so a crash never leaves a half-written key and the mode is set from the start. */
async function writeAtomic(file: string, text: string, mode: number): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text, { mode });
  await rename(tmp, file);
}

/**
 * The user and groups of a client certificate that the CA signed and that is valid at `now`, or
 * undefined. Like kube-apiserver, a certificate with extended key usages must allow clientAuth.
 * Results are cached per certificate (parsing and verifying cost ~1 ms); dates are checked per call.
 */
export function verifyClientCertificate(
  caPem: string,
  certDer: Buffer,
  now: Date = new Date(),
): { user: string; groups: string[] } | undefined {
  const ca = parseCa(caPem);
  const key = `${ca.fingerprint256}/${certDer.toString('base64')}`;
  let entry = verifiedCerts.get(key);
  if (!entry) {
    entry = inspectClientCert(ca, certDer);
    if (verifiedCerts.size >= 1024) verifiedCerts.clear(); // bounded: clients may send anything
    verifiedCerts.set(key, entry);
  }
  const t = now.getTime();
  if (!entry.identity || t < entry.notBefore || t > entry.notAfter) return undefined;
  return { user: entry.identity.user, groups: [...entry.identity.groups] };
}

interface InspectedCert {
  identity?: { user: string; groups: string[] };
  /** Validity window of the certificate and its CA together, in ms since the epoch. */
  notBefore: number;
  notAfter: number;
}
const verifiedCerts = new Map<string, InspectedCert>();

function inspectClientCert(ca: NodeX509, certDer: Buffer): InspectedCert {
  const rejected = { notBefore: 0, notAfter: 0 };
  let cert: NodeX509;
  try {
    cert = new NodeX509(certDer);
  } catch {
    return rejected;
  }
  if (!cert.checkIssued(ca) || !cert.verify(ca.publicKey)) return rejected;
  const usages = cert.keyUsage; // node 20 exposes the extended key usage OIDs here
  if (usages && !usages.includes(CLIENT_AUTH_OID) && !usages.includes(ANY_EKU_OID)) return rejected;
  const subject = new x509.X509Certificate(new Uint8Array(certDer)).subjectName;
  const user = subject.getField('CN')[0];
  if (!user) return rejected;
  const notBefore = Math.max(Date.parse(cert.validFrom), Date.parse(ca.validFrom));
  const notAfter = Math.min(Date.parse(cert.validTo), Date.parse(ca.validTo));
  if (!Number.isFinite(notBefore) || !Number.isFinite(notAfter)) return rejected;
  return { identity: { user, groups: subject.getField('O') }, notBefore, notAfter };
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
    const caCert = parseCa(ca.certPem);
    const later = new Date(now.getTime() + minDays * DAY_MS);
    return (
      cert.checkIssued(caCert) &&
      cert.verify(caCert.publicKey) &&
      cert.checkPrivateKey(createPrivateKey(pair.keyPem)) &&
      validAt(cert, now) &&
      validAt(cert, later)
    );
  } catch {
    return false;
  }
}

function validAt(cert: NodeX509, at: Date): boolean {
  const from = Date.parse(cert.validFrom);
  const to = Date.parse(cert.validTo);
  return Number.isFinite(from) && Number.isFinite(to) && at.getTime() >= from && at.getTime() <= to;
}

const parsedCas = new Map<string, NodeX509>();
function parseCa(caPem: string): NodeX509 {
  let ca = parsedCas.get(caPem);
  if (!ca) {
    ca = new NodeX509(caPem);
    if (parsedCas.size >= 16) parsedCas.clear(); // a handful of CAs per process at most
    parsedCas.set(caPem, ca);
  }
  return ca;
}

function validity(days: number): { notBefore: Date; notAfter: Date } {
  const now = Date.now();
  // Backdated a little so a client whose clock runs slightly behind still accepts the cert.
  return { notBefore: new Date(now - 60 * 60 * 1000), notAfter: new Date(now + days * DAY_MS) };
}

async function generateKeys(): Promise<CryptoKeyPair> {
  return globalThis.crypto.subtle.generateKey(KEY_ALGORITHM, true, ['sign', 'verify']);
}

async function importSigningKey(keyPem: string): Promise<CryptoKey> {
  const details = createPrivateKey(keyPem);
  if (details.asymmetricKeyType !== 'ec' || details.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new Error('CA key must be an ECDSA P-256 key');
  }
  const der = details.export({ type: 'pkcs8', format: 'der' });
  return globalThis.crypto.subtle.importKey('pkcs8', der, KEY_ALGORITHM, false, ['sign']);
}

async function toKeyPair(cert: X509.X509Certificate, privateKey: CryptoKey): Promise<KeyPair> {
  const pkcs8 = await globalThis.crypto.subtle.exportKey('pkcs8', privateKey);
  return { certPem: cert.toString('pem') + '\n', keyPem: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY') + '\n' };
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

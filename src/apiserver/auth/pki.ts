/**
 * Certificates for the embedded API server (a CA, a serving certificate and client certificates, made
 * by machinery/certs with ECDSA P-256 keys: fast to generate and accepted by Go's crypto/tls), kept
 * under the data dir. Checking a presented client certificate is synchronous (node:crypto) because it
 * runs on every request.
 */
import { X509Certificate as NodeX509, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  certificateCoversHosts, certificateSubject, generateCA as generateAnyCA, isIssuedPairUsable,
  issueClientCert as issueAnyClientCert, issueServingCert as issueAnyServingCert, parsedCertificate, type KeyPair,
} from '../../machinery/certs.js';

export { certificateCoversHosts, isIssuedPairUsable, type KeyPair };

const CLIENT_AUTH_OID = '1.3.6.1.5.5.7.3.2';
const ANY_EKU_OID = '2.5.29.37.0';
/** Reissue a leaf certificate this many days before it expires. */
const RENEW_DAYS = 30;

export function generateCA(commonName: string): Promise<KeyPair> {
  return generateAnyCA(commonName);
}

/** Serving certificate of the API server: IPs become IP SANs, everything else DNS SANs. */
export function issueServingCert(ca: KeyPair, hosts: string[]): Promise<KeyPair> {
  return issueAnyServingCert(ca, hosts, { commonName: 'kube-apiserver' });
}

/** Client certificate in Kubernetes' convention: CN is the user, each O a group. */
export function issueClientCert(ca: KeyPair, user: string, groups: string[]): Promise<KeyPair> {
  return issueAnyClientCert(ca, user, groups);
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
  const ca = parsedCertificate(caPem);
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
  const subject = certificateSubject(new Uint8Array(certDer));
  const user = subject.commonName;
  if (!user) return rejected;
  const notBefore = Math.max(Date.parse(cert.validFrom), Date.parse(ca.validFrom));
  const notAfter = Math.min(Date.parse(cert.validTo), Date.parse(ca.validTo));
  if (!Number.isFinite(notBefore) || !Number.isFinite(notAfter)) return rejected;
  return { identity: { user, groups: subject.organizations }, notBefore, notAfter };
}

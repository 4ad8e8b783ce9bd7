/**
 * Bound ServiceAccount tokens, as kube-apiserver issues and checks them
 * (docs/design/authorization.md §8): ES256 JWTs signed with a key kept in the data dir, kube's
 * issuer, audiences and `kubernetes.io` claims. A token is valid only while the ServiceAccount
 * (and the object it is bound to) still exists with the uid it names. Signing and verifying are
 * jose's; nothing here touches the cryptography itself.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SignJWT, jwtVerify } from 'jose';
import type { UserInfo } from '../../api/request.js';

export const defaultIssuer = 'https://kubernetes.default.svc.cluster.local';

export interface ObjectIdentity { name: string; uid: string }

/** What the token is for: the ServiceAccount, and the pod, secret or node it is bound to. */
export interface TokenClaims {
  namespace: string;
  serviceAccount: ObjectIdentity;
  audiences: string[];
  expirationSeconds: number;
  bound?: { kind: 'Pod' | 'Secret' | 'Node'; object: ObjectIdentity; node?: ObjectIdentity };
}

/** The uid of a stored object, or undefined when it is gone or being deleted. */
export type LiveObjectUid = (kind: 'ServiceAccount' | 'Pod' | 'Secret' | 'Node', namespace: string, name: string) => string | undefined;

export interface ServiceAccountTokens {
  issuer: string;
  /** The audiences a token gets when its request names none, and that the authenticator accepts. */
  apiAudiences: string[];
  issue(claims: TokenClaims, now?: Date): Promise<{ token: string; expirationTimestamp: Date }>;
  /** The token's user, or undefined when it is not one of ours or no longer valid. */
  authenticate(token: string, audiences?: string[]): Promise<UserInfo | undefined>;
}

export function createServiceAccountTokens(options: { privateKey: KeyObject; liveUid: LiveObjectUid; issuer?: string }): ServiceAccountTokens {
  const issuer = options.issuer ?? defaultIssuer;
  const publicKey = createPublicKey(options.privateKey);
  const keyId = createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('base64url');
  const apiAudiences = [issuer];
  return {
    issuer, apiAudiences,
    async issue(claims, now = new Date()) {
      const issuedAt = Math.floor(now.getTime() / 1000);
      const expires = issuedAt + claims.expirationSeconds;
      const kube: Record<string, unknown> = { namespace: claims.namespace, serviceaccount: claims.serviceAccount };
      if (claims.bound) kube[claims.bound.kind.toLowerCase()] = claims.bound.object;
      if (claims.bound?.node) kube.node = claims.bound.node;
      const token = await new SignJWT({ 'kubernetes.io': kube })
        .setProtectedHeader({ alg: 'ES256', kid: keyId })
        .setIssuer(issuer).setAudience(claims.audiences).setSubject(`system:serviceaccount:${claims.namespace}:${claims.serviceAccount.name}`)
        .setIssuedAt(issuedAt).setNotBefore(issuedAt).setExpirationTime(expires).setJti(randomUUID())
        .sign(options.privateKey);
      return { token, expirationTimestamp: new Date(expires * 1000) };
    },
    async authenticate(token, audiences = apiAudiences) {
      if (token.split('.').length !== 3) return undefined;
      const payload = await jwtVerify(token, publicKey, { issuer, audience: audiences, algorithms: ['ES256'], clockTolerance: 60 }).then((r) => r.payload, () => undefined);
      const kube = payload?.['kubernetes.io'] as KubeClaims | undefined;
      if (!kube?.namespace || !kube.serviceaccount?.name) return undefined;
      const ns = kube.namespace;
      if (options.liveUid('ServiceAccount', ns, kube.serviceaccount.name) !== kube.serviceaccount.uid) return undefined;
      for (const [kind, ref] of [['Pod', kube.pod], ['Secret', kube.secret]] as const) {
        if (ref && options.liveUid(kind, ns, ref.name) !== ref.uid) return undefined;
      }
      if (kube.node && !kube.pod && options.liveUid('Node', '', kube.node.name) !== kube.node.uid) return undefined;
      return userOf(kube, payload?.jti);
    },
  };
}

interface KubeClaims { namespace?: string; serviceaccount?: ObjectIdentity; pod?: ObjectIdentity; secret?: ObjectIdentity; node?: ObjectIdentity }

/** kube's serviceaccount.UserInfo: the SA's username and uid, its groups, and the binding in extras. */
function userOf(kube: KubeClaims, jti: string | undefined): UserInfo {
  const ns = kube.namespace!;
  const extra: Record<string, string[]> = {};
  if (kube.pod) Object.assign(extra, { 'authentication.kubernetes.io/pod-name': [kube.pod.name], 'authentication.kubernetes.io/pod-uid': [kube.pod.uid] });
  if (kube.node) Object.assign(extra, { 'authentication.kubernetes.io/node-name': [kube.node.name], 'authentication.kubernetes.io/node-uid': [kube.node.uid] });
  if (jti) extra['authentication.kubernetes.io/credential-id'] = [`JTI=${jti}`];
  return {
    username: `system:serviceaccount:${ns}:${kube.serviceaccount!.name}`, uid: kube.serviceaccount!.uid,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`], ...(Object.keys(extra).length ? { extra } : {}),
  };
}

/** The signing key under `<dataDir>/pki/sa.key` (PKCS#8 P-256), made on first start and kept across restarts. */
export async function loadOrCreateServiceAccountKey(dataDir: string): Promise<KeyObject> {
  const file = path.join(dataDir, 'pki', 'sa.key');
  const existing = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  if (existing) return createPrivateKey(existing);
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  await rename(tmp, file);
  return privateKey;
}

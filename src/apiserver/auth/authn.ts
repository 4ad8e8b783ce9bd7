/**
 * Request authentication for the embedded API server: client certificates signed by the server
 * CA (CN = user, O = groups), bearer tokens from a static table, and ServiceAccount tokens
 * (service-account-tokens.ts; docs/design/authorization.md §8). Like kube-apiserver's union
 * authenticator, the certificate is tried first, then the token; presented-but-invalid
 * credentials are a rejection (401), not anonymous access.
 */
import { X509Certificate } from 'node:crypto';
import { verifyClientCertificate } from './pki.js';

import type { UserInfo } from '../../api/request.js';

export type { UserInfo } from '../../api/request.js';

export interface AuthnRequest {
  headers: Record<string, string | string[] | undefined>;
  /** DER of the TLS peer certificate, when the client presented one. */
  peerCertificateDer?: Buffer;
}

export type AuthnResult =
  | { status: 'authenticated'; user: UserInfo }
  | { status: 'anonymous' }
  | { status: 'rejected'; reason: string };

export interface Authenticator {
  /** The authenticated user, or undefined for anonymous and rejected requests alike. */
  authenticate(req: AuthnRequest): Promise<UserInfo | undefined>;
  /** Tells "no credentials" (anonymous) from "bad credentials" (kube-apiserver answers 401). */
  check(req: AuthnRequest): Promise<AuthnResult>;
  /** A bearer token's user (static table, then ServiceAccount tokens), for TokenReview too. */
  authenticateToken(token: string): Promise<UserInfo | undefined>;
}

export interface AuthenticatorOptions {
  caPem: string;
  tokens: Record<string, UserInfo>;
  /** Verifies ServiceAccount JWTs; the static table is asked first. */
  serviceAccountTokens?: (token: string) => Promise<UserInfo | undefined>;
}

export const AUTHENTICATED_GROUP = 'system:authenticated';

export const anonymousUser: Readonly<UserInfo> = Object.freeze({
  username: 'system:anonymous',
  groups: ['system:unauthenticated'],
});

export function createAuthenticator(options: AuthenticatorOptions): Authenticator {
  new X509Certificate(options.caPem); // fail at start-up, not on the first request
  const tokens = new Map<string, UserInfo>();
  for (const [token, user] of Object.entries(options.tokens)) {
    if (!token || /\s/.test(token)) throw new Error('bearer tokens must be non-empty and without whitespace');
    if (!user.username) throw new Error('token users need a username');
    tokens.set(token, user);
  }

  const authenticateToken = async (token: string): Promise<UserInfo | undefined> => {
    const user = tokens.get(token) ?? (await options.serviceAccountTokens?.(token));
    return user && withAuthenticatedGroup(user);
  };

  const check = async (req: AuthnRequest): Promise<AuthnResult> => {
    const failures: string[] = [];
    if (req.peerCertificateDer && req.peerCertificateDer.length > 0) {
      const identity = verifyClientCertificate(options.caPem, req.peerCertificateDer);
      if (identity) return authenticated({ username: identity.user, groups: identity.groups });
      failures.push('client certificate not signed by the cluster CA, expired, or not for client auth');
    }
    const token = bearerToken(req.headers.authorization);
    if (token !== undefined) {
      const user = await authenticateToken(token);
      if (user) return { status: 'authenticated', user };
      failures.push('invalid bearer token');
    }
    return failures.length > 0 ? { status: 'rejected', reason: failures.join('; ') } : { status: 'anonymous' };
  };

  return {
    check,
    authenticateToken,
    authenticate: async (req) => {
      const result = await check(req);
      return result.status === 'authenticated' ? result.user : undefined;
    },
  };
}

function authenticated(user: UserInfo): AuthnResult {
  return { status: 'authenticated', user: withAuthenticatedGroup(user) };
}

function withAuthenticatedGroup(user: UserInfo): UserInfo {
  const groups = user.groups.includes(AUTHENTICATED_GROUP) ? [...user.groups] : [...user.groups, AUTHENTICATED_GROUP];
  return { ...user, groups };
}

/** `Authorization: Bearer <token>`; other schemes and empty tokens count as no token. */
function bearerToken(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const [scheme, token] = (value ?? '').trim().split(/\s+/);
  if (scheme?.toLowerCase() !== 'bearer' || !token) return undefined;
  return token;
}

/**
 * Paths anonymous users may GET: version, health, discovery, OpenAPI and the OIDC documents.
 * Resource paths (/api/v1/pods, /apis/g/v/...) are not.
 */
export function isAnonymousAllowed(path: string, method = 'GET'): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  const pathname = path.split('?')[0] ?? '';
  if (!pathname.startsWith('/')) return false;
  const segments = pathname.slice(1).replace(/\/$/, '').split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return false;
  const [first, ...rest] = segments;
  switch (first) {
    case 'version':
    case 'healthz':
    case 'livez':
    case 'readyz':
      return true;
    case 'openapi':
      return rest.length > 0;
    case 'api':
      return rest.length === 0 || (rest.length === 1 && rest[0] === 'v1');
    case 'apis':
      return rest.length <= 2;
    case '.well-known':
      return rest.length === 1 && rest[0] === 'openid-configuration';
    case 'openid':
      return rest.join('/') === 'v1/jwks';
    default:
      return false;
  }
}

/**
 * Who may look: the API server's own users (docs/design/dashboard.md §4). A browser signs in with a
 * bearer token, checked by a TokenReview; under `kruise up` a request the API server already
 * authenticated (client certificate, Authorization header) counts too; `kruise dashboard` also
 * prints a one-time login key that stands for its kubeconfig's identity. Each user must be allowed
 * to watch pods in every namespace (SubjectAccessReview); actions need `patch` on the workload.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Client } from '../client/client.js';
import type { ResourceType } from '../api/resource-type.js';

/** `token`: the bearer token the user signed in with, kept in the session (backend memory) to ask as them. */
export interface DashboardUser { username: string; uid?: string; groups: string[]; extra?: Record<string, string[]>; kubeconfig?: boolean; token?: string }

const TokenReviews: ResourceType = { group: 'authentication.k8s.io', version: 'v1', resource: 'tokenreviews', kind: 'TokenReview', namespaced: false };
const SubjectAccessReviews: ResourceType = { group: 'authorization.k8s.io', version: 'v1', resource: 'subjectaccessreviews', kind: 'SubjectAccessReview', namespaced: false };
const sessionTtlMs = 12 * 3600_000;
export const sessionCookie = 'kruise-dashboard';

export class DashboardAuth {
  private readonly sessions = new Map<string, { user: DashboardUser; expires: number }>();

  /** `loginKey`: the key `kruise dashboard` prints (absent under `kruise up`). */
  constructor(private readonly client: Client, private readonly loginKey?: string) {}

  /** The user a token or login key names, or why not. */
  async login(secret: string): Promise<DashboardUser | { refused: string }> {
    if (this.loginKey && safeEqual(secret, this.loginKey)) return { username: 'kubeconfig user', groups: [], kubeconfig: true };
    const review = await this.client.create(TokenReviews, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', metadata: { name: '' }, spec: { token: secret } } as never) as { status?: { authenticated?: boolean; user?: DashboardUser; error?: string } };
    if (!review.status?.authenticated || !review.status.user) return { refused: 'the token is not valid for this cluster' };
    return { ...review.status.user, groups: review.status.user.groups ?? [], token: secret };
  }

  /** Whether the user may do `verb` on `resource` (every namespace when `namespace` is absent). */
  async allowed(user: DashboardUser, verb: string, type: { group: string; resource: string }, namespace?: string, name?: string): Promise<boolean> {
    if (user.kubeconfig) return true; // the backend acts as the kubeconfig's user; the API server decides
    const review = await this.client.create(SubjectAccessReviews, {
      apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', metadata: { name: '' },
      spec: { user: user.username, uid: user.uid, groups: user.groups, extra: user.extra, resourceAttributes: { verb, group: type.group, resource: type.resource, namespace, name } },
    } as never) as { status?: { allowed?: boolean } };
    return review.status?.allowed === true;
  }

  startSession(user: DashboardUser): string {
    const id = randomBytes(24).toString('base64url');
    this.sessions.set(id, { user, expires: Date.now() + sessionTtlMs });
    return id;
  }

  endSession(id: string | undefined): void {
    if (id) this.sessions.delete(id);
  }

  userOf(sessionId: string | undefined): DashboardUser | undefined {
    const s = sessionId ? this.sessions.get(sessionId) : undefined;
    if (!s) return undefined;
    if (s.expires < Date.now()) {
      this.sessions.delete(sessionId!);
      return undefined;
    }
    return s.user;
  }
}

export function newLoginKey(): string {
  return randomBytes(18).toString('base64url');
}

export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

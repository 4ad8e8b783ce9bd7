/**
 * Printers of the kinds added for v1.32 resource parity (docs/design/apiserver.md §11). Their
 * column definitions are kube-apiserver's own, recorded from a real server in parity-columns.gen.json;
 * the cells follow upstream's printers.
 */
import type { ColumnDefinition, TablePrinter } from '../../api/resource.js';
import { ageSince, humanDuration } from './age.js';
import { printer } from './columns.js';
import { arrayAt, asObject, asString, createdAt, nameOf, objectAt, stringAt, valueAt, type JsonObject } from './fields.js';
import { formatLabelSelector } from './format.js';
import columns from './parity-columns.gen.json' with { type: 'json' };

const defs = columns as Record<string, ColumnDefinition[]>;
type Cells = (obj: JsonObject, now: Date) => unknown[];

function conditionOf(obj: unknown, type: string): JsonObject | undefined {
  return arrayAt(obj, 'status', 'conditions').map(asObject).find((c) => c.type === type);
}

const orNone = (s: string) => s || '<none>';

const cells: Record<string, Cells> = {
  '/ComponentStatus': (cs) => {
    const c = conditionOf({ status: { conditions: cs.conditions } }, 'Healthy');
    const status = !c ? 'Unknown' : c.status === 'True' ? 'Healthy' : 'Unhealthy';
    return [nameOf(cs), status, asString(c?.message), asString(c?.error)];
  },
  'apiregistration.k8s.io/APIService': (a, now) => {
    const svc = objectAt(a, 'spec', 'service');
    const c = conditionOf(a, 'Available');
    const available = !c ? 'Unknown' : c.status === 'True' ? 'True' : `${asString(c.status)} (${asString(c.reason)})`;
    return [nameOf(a), svc.name ? `${asString(svc.namespace)}/${asString(svc.name)}` : 'Local', available, ageSince(createdAt(a), now)];
  },
  'certificates.k8s.io/CertificateSigningRequest': (csr, now) => {
    const types = new Set(arrayAt(csr, 'status', 'conditions').map((c) => asObject(c).type));
    let condition = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
    if (types.has('Failed')) condition += ',Failed';
    if (stringAt(csr, 'status', 'certificate')) condition += ',Issued';
    const seconds = valueAt(csr, 'spec', 'expirationSeconds');
    const duration = typeof seconds === 'number' ? humanDuration(seconds * 1000) : '<none>';
    return [nameOf(csr), ageSince(createdAt(csr), now), stringAt(csr, 'spec', 'signerName'), stringAt(csr, 'spec', 'username'), duration, condition];
  },
  'flowcontrol.apiserver.k8s.io/FlowSchema': (fs, now) => [
    nameOf(fs), stringAt(fs, 'spec', 'priorityLevelConfiguration', 'name'), String(valueAt(fs, 'spec', 'matchingPrecedence') ?? 0),
    orNone(stringAt(fs, 'spec', 'distinguisherMethod', 'type')), ageSince(createdAt(fs), now), asString(conditionOf(fs, 'Dangling')?.status) || '?',
  ],
  'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration': (pl, now) => {
    const limited = objectAt(pl, 'spec', 'limited');
    const queuing = objectAt(limited, 'limitResponse', 'queuing');
    const num = (v: unknown) => (typeof v === 'number' ? String(v) : '<none>');
    const limitedOnly = stringAt(pl, 'spec', 'type') === 'Limited';
    return [
      nameOf(pl), stringAt(pl, 'spec', 'type'), limitedOnly ? num(limited.nominalConcurrencyShares) : '<none>',
      num(queuing.queues), num(queuing.handSize), num(queuing.queueLengthLimit), ageSince(createdAt(pl), now),
    ];
  },
  'networking.k8s.io/Ingress': (ing, now) => {
    const hosts = arrayAt(ing, 'spec', 'rules').map((r) => asString(asObject(r).host)).filter(Boolean);
    const hostCell = hosts.length === 0 ? '*' : hosts.length > 3 ? `${hosts.slice(0, 3).join(',')} + ${hosts.length - 3} more...` : hosts.join(',');
    const address = arrayAt(ing, 'status', 'loadBalancer', 'ingress').map((i) => asString(asObject(i).ip) || asString(asObject(i).hostname)).filter(Boolean).join(',');
    const ports = arrayAt(ing, 'spec', 'tls').length > 0 ? '80, 443' : '80';
    return [nameOf(ing), orNone(stringAt(ing, 'spec', 'ingressClassName')), hostCell, address, ports, ageSince(createdAt(ing), now)];
  },
  'networking.k8s.io/IngressClass': (ic, now) => {
    const p = objectAt(ic, 'spec', 'parameters');
    const parameters = p.name ? `${asString(p.kind)}${p.apiGroup ? `.${asString(p.apiGroup)}` : ''}/${asString(p.name)}` : '<none>';
    return [nameOf(ic), stringAt(ic, 'spec', 'controller'), parameters, ageSince(createdAt(ic), now)];
  },
  'networking.k8s.io/NetworkPolicy': (np, now) => [nameOf(np), formatLabelSelector(valueAt(np, 'spec', 'podSelector')), ageSince(createdAt(np), now)],
  'node.k8s.io/RuntimeClass': (rc, now) => [nameOf(rc), asString(rc.handler), ageSince(createdAt(rc), now)],
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy': (p, now) => {
    const kind = objectAt(p, 'spec', 'paramKind');
    return [nameOf(p), arrayAt(p, 'spec', 'validations').length, kind.kind ? `${asString(kind.apiVersion)}/${asString(kind.kind)}` : '<unset>', ageSince(createdAt(p), now)];
  },
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding': (b, now) => {
    const ref = objectAt(b, 'spec', 'paramRef');
    const param = ref.name ? (ref.namespace ? `${asString(ref.namespace)}/${asString(ref.name)}` : asString(ref.name)) : ref.selector ? '*/*' : '<unset>';
    return [nameOf(b), stringAt(b, 'spec', 'policyName'), param, ageSince(createdAt(b), now)];
  },
};

/** Printers keyed like builtinPrinters (`<group>/<Kind>`). */
export const parityPrinters: Record<string, TablePrinter> = Object.fromEntries(
  Object.entries(cells).map(([key, fn]) => [key, printer(defs[key]!, fn)]),
);

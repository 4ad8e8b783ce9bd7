/**
 * Objects in the state OpenKruise's manager leaves them (docs/design/takeover.md §2), written as its
 * Go client would (templates with `creationTimestamp: null` and `resources: {}`), for the takeover
 * test: a CloneSet mid-rollout (partition 1: two pods on the update revision, one of them updated in
 * place, one pod on the current revision), an Advanced StatefulSet whose pods carry an injected
 * SidecarSet sidecar, an Advanced DaemonSet, and the SidecarSet. CloneSet and ASTS revision names use
 * upstream's hash (FNV-1 over the sorted-key JSON of the data, then the collision count in decimal);
 * ADS and SidecarSet hashes come from Go struct dumps we cannot reproduce, so recorded values stand in.
 */
import { dataHash, revisionName } from '../../control/revision/new-revision.js';
import { goJson } from '../../machinery/hash.js';

type Obj = Record<string, any>; // any: plain manifests

export const ns = 'takeover';
export const images = { a: 'nginx:1.24', b: 'nginx:1.25', c: 'nginx:1.26', sidecar: 'busybox:1.36', sidecarNext: 'busybox:1.37' };
const then = '2024-05-01T10:00:00Z';

/** A pod template as Go marshals a defaulted corev1.PodTemplateSpec. */
function goTemplate(labels: Record<string, string>, image: string, extra: Obj = {}): Obj {
  return {
    metadata: { creationTimestamp: null, labels },
    spec: {
      containers: [{ name: 'app', image, resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent' }],
      restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst', securityContext: {}, schedulerName: 'default-scheduler',
      ...extra,
    },
  };
}

/** `{"spec":{"template":{...,"$patch":"replace"}}}` as upstream's getPatch writes it (keys sorted). */
function revisionData(template: Obj): Obj {
  return JSON.parse(goJson({ spec: { template: { ...template, $patch: 'replace' } } })) as Obj;
}

export interface Revision { name: string; hash: string; object: Obj }

function revision(owner: Obj, template: Obj, number: number, hashLabel: string, hash?: string): Revision {
  const data = revisionData(template);
  const h = hash ?? dataHash(data, 0);
  const name = revisionName(owner.metadata.name, h);
  return {
    name, hash: h,
    object: {
      apiVersion: 'apps/v1', kind: 'ControllerRevision',
      metadata: {
        name, namespace: ns, labels: { ...template.metadata.labels, [hashLabel]: h }, annotations: owner.metadata.annotations ?? {},
        ownerReferences: [{ apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid, controller: true, blockOwnerDeletion: true }],
      },
      data, revision: number,
    },
  };
}

const owner = (o: Obj) => [{ apiVersion: o.apiVersion, kind: o.kind, name: o.metadata.name, uid: o.metadata.uid, controller: true, blockOwnerDeletion: true }];
const inPlaceGate = { readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] };

export function cloneSet(image = images.b): Obj {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'web', namespace: ns },
    spec: {
      replicas: 3, selector: { matchLabels: { app: 'web' } }, revisionHistoryLimit: 10, scaleStrategy: {},
      template: goTemplate({ app: 'web' }, image, inPlaceGate),
      updateStrategy: { type: 'InPlaceIfPossible', partition: 1, maxUnavailable: '20%', maxSurge: 0 },
    },
  };
}

/** Revisions of the CloneSet (image a = 1, image b = 2) and its pods with instance ids. */
export function cloneSetState(set: Obj): { revisions: [Revision, Revision]; pods: Obj[]; status: Obj } {
  const r1 = revision(set, goTemplate({ app: 'web' }, images.a, inPlaceGate), 1, 'controller.kubernetes.io/hash');
  const r2 = revision(set, goTemplate({ app: 'web' }, images.b, inPlaceGate), 2, 'controller.kubernetes.io/hash');
  const pod = (id: string, rev: Revision, image: string, node: string, annotations: Obj = {}): Obj => ({
    apiVersion: 'v1', kind: 'Pod',
    metadata: {
      name: `web-${id}`, namespace: ns, ownerReferences: owner(set), annotations,
      labels: { app: 'web', 'controller-revision-hash': rev.name, 'pod-template-hash': rev.hash, 'apps.kruise.io/cloneset-instance-id': id, 'lifecycle.apps.kruise.io/state': 'Normal' },
    },
    spec: { ...goTemplate({}, image, inPlaceGate).spec, nodeName: node },
  });
  // Created on revision 1, then updated in place to 2: the state annotation stays with the old imageID.
  const inPlaceState = { revision: r2.name, updateTimestamp: then, lastContainerStatuses: { app: { imageID: 'docker.io/library/nginx@sha256:' + 'a'.repeat(64) } }, updateEpoch: 1, containerBatchesRecord: [{ timestamp: then, containers: ['app'] }] };
  const pods = [
    pod('x7k2p', r2, images.b, 'to-0', { 'apps.kruise.io/inplace-update-state': JSON.stringify(inPlaceState) }),
    pod('m4q9z', r2, images.b, 'to-1'),
    pod('b8w5d', r1, images.a, 'to-0'),
  ];
  const status = {
    observedGeneration: 1, replicas: 3, readyReplicas: 3, availableReplicas: 3, updatedReplicas: 2, updatedReadyReplicas: 2, updatedAvailableReplicas: 2,
    expectedUpdatedReplicas: 2, currentRevision: r1.name, updateRevision: r2.name, collisionCount: 0, labelSelector: 'app=web',
  };
  return { revisions: [r1, r2], pods, status };
}

export function statefulSet(image = images.b): Obj {
  return {
    apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', metadata: { name: 'db', namespace: ns },
    spec: {
      replicas: 2, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, podManagementPolicy: 'OrderedReady', revisionHistoryLimit: 10,
      template: goTemplate({ app: 'db' }, image, inPlaceGate),
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', partition: 0, maxUnavailable: 1 } },
    },
  };
}

/** The SidecarSet injecting `log-agent` into the StatefulSet's pods; hashes as upstream recorded them. */
export const sidecar = { name: 'log', hash: 'x4c7vb95b8f5wz2cdv6dd4v8z4fz8b2z8b59v4w5f6b88c97b4dw84c5c89dv9bb', hashWithoutImage: 'f4bc5bd9z9x8d62c5f9f4c8cdf6v4w54458z9cb7c4x2vbbcbvx84w4b7z5826z7', revision: 'log-6f8b9d7c5' };

export function sidecarSet(): Obj {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet',
    metadata: { name: sidecar.name, annotations: { 'kruise.io/sidecarset-hash': sidecar.hash, 'kruise.io/sidecarset-hash-without-image': sidecar.hashWithoutImage } },
    spec: {
      selector: { matchLabels: { app: 'db' } },
      containers: [{ name: 'log-agent', image: images.sidecar, command: ['sleep', '3600'], resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent', podInjectPolicy: 'BeforeAppContainer', shareVolumePolicy: { type: 'disabled' }, upgradeStrategy: { upgradeType: 'ColdUpgrade' } }],
      updateStrategy: { type: 'RollingUpdate', partition: 0, maxUnavailable: 1 },
    },
  };
}

export function statefulSetState(set: Obj): { revision: Revision; pods: Obj[]; status: Obj } {
  const rev = revision(set, goTemplate({ app: 'db' }, images.b, inPlaceGate), 1, 'controller.kubernetes.io/hash');
  const sidecarEntry = (hash: string) => JSON.stringify({ [sidecar.name]: { updateTimestamp: then, hash, sidecarSetName: sidecar.name, sidecarList: ['log-agent'], controllerRevision: sidecar.revision } });
  const pods = [0, 1].map((i) => {
    const spec = goTemplate({}, images.b, inPlaceGate).spec;
    spec.containers.unshift({ name: 'log-agent', image: images.sidecar, command: ['sleep', '3600'], env: [{ name: 'IS_INJECTED', value: 'true' }], resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent' });
    return {
      apiVersion: 'v1', kind: 'Pod',
      metadata: {
        name: `db-${i}`, namespace: ns, ownerReferences: owner(set),
        labels: { app: 'db', 'controller-revision-hash': rev.name, 'statefulset.kubernetes.io/pod-name': `db-${i}`, 'apps.kubernetes.io/pod-index': String(i), 'lifecycle.apps.kruise.io/state': 'Normal' },
        annotations: { 'kruise.io/sidecarset-hash': sidecarEntry(sidecar.hash), 'kruise.io/sidecarset-hash-without-image': sidecarEntry(sidecar.hashWithoutImage), 'kruise.io/sidecarset-injected-list': sidecar.name },
      },
      spec: { ...spec, hostname: `db-${i}`, subdomain: 'db', nodeName: `to-${i}` },
    };
  });
  const status = { observedGeneration: 1, replicas: 2, readyReplicas: 2, availableReplicas: 2, currentReplicas: 2, updatedReplicas: 2, updatedReadyReplicas: 2, updatedAvailableReplicas: 2, currentRevision: rev.name, updateRevision: rev.name, collisionCount: 0, labelSelector: 'app=db' };
  return { revision: rev, pods, status };
}

export function daemonSet(image = images.b): Obj {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'DaemonSet', metadata: { name: 'agent', namespace: ns },
    spec: {
      selector: { matchLabels: { app: 'agent' } }, revisionHistoryLimit: 10,
      template: goTemplate({ app: 'agent' }, image, inPlaceGate),
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: 1, maxSurge: 0, partition: 0 } },
    },
  };
}

/**
 * ADS hash: upstream's ComputeHash (FNV-1a over a spew dump of the Go struct, no collision count),
 * which TypeScript does not reproduce; computed once with k8s.io/api v0.32.13 and go-spew for this template.
 */
export const daemonSetHash = '5746bcc849';

export function daemonSetState(set: Obj): { revision: Revision; pods: Obj[]; status: Obj } {
  const rev = revision(set, goTemplate({ app: 'agent' }, images.b, inPlaceGate), 1, 'controller-revision-hash', daemonSetHash);
  const tolerations = ['not-ready', 'unreachable'].map((t) => ({ key: `node.kubernetes.io/${t}`, operator: 'Exists', effect: 'NoExecute' }))
    .concat(['disk-pressure', 'memory-pressure', 'pid-pressure', 'unschedulable'].map((t) => ({ key: `node.kubernetes.io/${t}`, operator: 'Exists', effect: 'NoSchedule' })));
  const pods = ['to-0', 'to-1'].map((node, i) => ({
    apiVersion: 'v1', kind: 'Pod',
    metadata: {
      name: `agent-${['q5v8n', 'h2j7t'][i]}`, namespace: ns, ownerReferences: owner(set),
      labels: { app: 'agent', 'controller-revision-hash': daemonSetHash, 'pod-template-generation': '1' },
    },
    spec: {
      ...goTemplate({}, images.b, inPlaceGate).spec, nodeName: node, tolerations,
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }] } } },
    },
  }));
  const status = { observedGeneration: 1, currentNumberScheduled: 2, numberMisscheduled: 0, desiredNumberScheduled: 2, numberReady: 2, updatedNumberScheduled: 2, numberAvailable: 2, daemonSetHash };
  return { revision: rev, pods, status };
}

/** Test data: scenario manifests of the image, probe, distribution and protection kinds (see scenario-examples.fixture.ts). */
import type { Example } from './spec-examples.fixture.js';

export const moreScenarioExamples: Example[] = [
  { name: 'ImagePullJob v1alpha1 with selectors and policies', yaml: `apiVersion: apps.kruise.io/v1alpha1
kind: ImagePullJob
metadata: {name: pull-sel, namespace: t, finalizers: [apps.kruise.io/deletion-protection]}
spec:
  image: nginx:1.25
  pullSecrets: [reg]
  selector: {names: [n1], matchLabels: {a: b}}
  podSelector: {matchExpressions: [{key: app, operator: Exists}]}
  parallelism: "50%"
  pullPolicy: {backoffLimit: 1, timeoutSeconds: 10}
  completionPolicy: {type: Never}
  sandboxConfig: {labels: {k: v}, annotations: {a: b}}
  imagePullPolicy: Always
status: {desired: 2, active: 0, succeeded: 1, failed: 1, failedNodes: [n2], message: job has completed}
` },
  { name: 'ImageListPullJob', yaml: `apiVersion: apps.kruise.io/v1beta1
kind: ImageListPullJob
metadata: {name: list, namespace: t}
spec:
  images: [nginx:1.25, busybox:1.36]
  parallelism: 1
  completionPolicy: {type: Always}
status: {desired: 2, completed: 2, succeeded: 1, active: 0, failedImageStatuses: [{imagePullJob: list-abcde, name: busybox:1.36, message: "see kubectl get ImagePullJob list-abcde"}]}
` },
  { name: 'NodeImage v1beta1 hand-written tag', yaml: `apiVersion: apps.kruise.io/v1beta1
kind: NodeImage
metadata: {name: n1, labels: {apps.kruise.io/fake-nodeimage: "true"}}
spec:
  images:
    nginx:
      pullSecrets: [{namespace: kruise-daemon-config, name: reg-abcdef, mode: batch}]
      sandboxConfig: {labels: {a: b}}
      tags:
      - tag: "1.25"
        createdAt: "2024-01-01T00:00:00Z"
        version: 0
        imagePullPolicy: IfNotPresent
        pullPolicy: {ttlSecondsAfterFinished: 300, timeoutSeconds: 600, backoffLimit: 3, activeDeadlineSeconds: 1800}
        ownerReferences: [{apiVersion: apps.kruise.io/v1beta1, kind: ImagePullJob, name: pull-nginx, namespace: t, uid: u1}]
status:
  desired: 1
  pulling: 0
  waiting: 0
  succeeded: 1
  failed: 0
  imageStatuses: {nginx: {tags: [{tag: "1.25", phase: Succeeded, progress: 100, version: 0, imageID: "nginx@sha256:1"}]}}
` },
  { name: 'NodePodProbe', yaml: `apiVersion: apps.kruise.io/v1alpha1
kind: NodePodProbe
metadata: {name: n1}
spec:
  podProbes:
  - {name: p1, namespace: t, uid: u1, IP: 10.0.0.1, probes: [{name: "idle#idle", containerName: main, probe: {tcpSocket: {port: 8080}, periodSeconds: 1}}]}
status:
  podProbeStatuses: [{name: p1, namespace: t, uid: u1, probeStates: [{name: "idle#idle", state: Succeeded, lastProbeTime: "2024-01-01T00:00:00Z", message: ok}]}]
` },
  { name: 'PodProbeMarker with httpGet and tcpSocket probes', yaml: `apiVersion: apps.kruise.io/v1alpha1
kind: PodProbeMarker
metadata: {name: web, namespace: t}
spec:
  selector: {matchLabels: {app: game}}
  probes:
  - {name: h, containerName: main, podConditionType: game.io/h, probe: {httpGet: {path: /ok, port: 80, scheme: HTTP, httpHeaders: [{name: X, value: y}]}, timeoutSeconds: 1}}
  - {name: t, containerName: main, markerPolicy: [{state: Failed, labels: {down: "true"}}], probe: {tcpSocket: {port: http}, initialDelaySeconds: 1}}
status: {observedGeneration: 1, matchedPods: 1}
` },
  { name: 'ResourceDistribution v1beta1', yaml: `apiVersion: apps.kruise.io/v1beta1
kind: ResourceDistribution
metadata: {name: shared-secret}
spec:
  resource: {apiVersion: v1, kind: Secret, metadata: {name: shared}, type: Opaque, data: {k: djE=}}
  targets: {allNamespaces: true, namespaceSelector: {matchLabels: {team: x}}, excludedNamespaces: {list: [{name: rd-2}]}}
status:
  desired: 2
  succeeded: 1
  failed: 1
  observedGeneration: 1
  conditions: [{type: ConflictOccurred, status: "True", reason: conflict, failedNamespaces: [rd-5], lastTransitionTime: "2024-01-01T00:00:00Z"}]
` },
  { name: 'PodUnavailableBudget v1beta1 on bare pods', yaml: `apiVersion: policy.kruise.io/v1beta1
kind: PodUnavailableBudget
metadata: {name: bare, namespace: pb1}
spec:
  selector: {matchLabels: {app: bare}}
  minAvailable: "50%"
  protectTotalReplicas: 3
  protectOperations: [EVICT, RESIZE]
  ignoredPodSelector: {matchLabels: {drain: ok}}
status: {totalReplicas: 3, desiredAvailable: 2, currentAvailable: 3, unavailableAllowed: 1, observedGeneration: 1, disruptedPods: {p1: "2024-01-01T00:00:00Z"}, unavailablePods: {}}
` },
  { name: 'PodUnavailableBudget v1alpha1 annotations', yaml: `apiVersion: policy.kruise.io/v1alpha1
kind: PodUnavailableBudget
metadata: {name: evict-only, namespace: pb1, annotations: {kruise.io/pub-protect-operations: EVICT, pub.kruise.io/protect-total-replicas: "3"}}
spec: {selector: {matchLabels: {app: web}}, maxUnavailable: "25%"}
` },
  { name: 'PersistentPodState v1beta1', yaml: `apiVersion: apps.kruise.io/v1beta1
kind: PersistentPodState
metadata: {name: web, namespace: pp1}
spec:
  targetRef: {apiVersion: apps.kruise.io/v1beta1, kind: StatefulSet, name: web}
  requiredPersistentTopology: {keys: [zone]}
  preferredPersistentTopology: [{weight: 0, preference: {keys: [kubernetes.io/hostname]}}]
  persistentPodAnnotations: [{key: cni.projectcalico.org/podIP}]
  persistentPodStateRetentionPolicy: WhenDeleted
status: {observedGeneration: 1, podStates: {web-0: {nodeName: n1, nodeTopologyLabels: {zone: a}, annotations: {k: v}}}}
` },
  { name: 'EphemeralJob', yaml: `apiVersion: apps.kruise.io/v1alpha1
kind: EphemeralJob
metadata: {name: debug, namespace: t}
spec:
  selector: {matchLabels: {app: web}}
  replicas: 2
  parallelism: 1
  activeDeadlineSeconds: 600
  ttlSecondsAfterFinished: 60
  template: {ephemeralContainers: [{name: dbg, image: busybox, command: [sleep, "60"], targetContainerName: main}]}
status: {phase: Running, match: 2, running: 1, waiting: 1, succeeded: 0, failed: 0}
` },
];

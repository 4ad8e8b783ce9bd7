/**
 * Test data: the example manifests of the Kruise kinds other than the workloads (jobs, sidecars,
 * enhanced operations, multi-domain distribution and application protection) from OpenKruise's user
 * manuals and behaviour specs, copied verbatim, one per kind (docs/design/kruise-api.md §10). The
 * workload examples are in ../workloads/spec-manifests.fixture.ts; manifests built from the scenario
 * descriptions are in scenario-examples*.fixture.ts.
 */

export interface Example { name: string; yaml: string }

/** One YAML document per example, each with an apps.kruise.io or policy.kruise.io apiVersion. */
export const specExamples: Example[] = [
  { name: 'BroadcastJob bcj-ok', yaml: `apiVersion: apps.kruise.io/v1beta1
kind: BroadcastJob
metadata: {name: bcj-ok, namespace: t}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: w, image: busybox:1.36, command: [sh, -c, "exit 0"]}]
` },
  { name: 'AdvancedCronJob acj-b', yaml: `apiVersion: apps.kruise.io/v1beta1
kind: AdvancedCronJob
metadata: {name: acj-b, namespace: t}
spec:
  schedule: "*/1 * * * *"
  template:
    broadcastJobTemplate:
      metadata: {labels: {from: acj}}
      spec:
        template: {spec: {restartPolicy: Never, containers: [{name: w, image: busybox:1.36, command: [sh, -c, "exit 0"]}]}}
` },
  { name: 'SidecarSet log-agent', yaml: `apiVersion: apps.kruise.io/v1beta1
kind: SidecarSet
metadata: {name: log-agent}
spec:
  selector: {matchLabels: {app: web}}
  containers:
  - name: agent
    image: busybox:1.35
    command: [sleep, "3600"]
    volumeMounts: [{name: logs, mountPath: /var/log/app}]
  volumes: [{name: logs, emptyDir: {}}]
` },
  { name: 'ContainerRecreateRequest crr-1', yaml: `apiVersion: apps.kruise.io/v1beta1
kind: ContainerRecreateRequest
metadata: {name: crr-1, namespace: t}
spec:
  podName: p1
  containers: [{name: app}]
  strategy: {minStartedSeconds: 2}
  ttlSecondsAfterFinished: 60
` },
  { name: 'ImagePullJob pull-nginx', yaml: `apiVersion: apps.kruise.io/v1beta1
kind: ImagePullJob
metadata: {name: pull-nginx, namespace: t}
spec:
  image: nginx:1.25
  parallelism: 2
  completionPolicy: {type: Always, ttlSecondsAfterFinished: 30}
` },
  { name: 'PodProbeMarker idle', yaml: `apiVersion: apps.kruise.io/v1alpha1
kind: PodProbeMarker
metadata: {name: idle, namespace: t}
spec:
  selector: {matchLabels: {app: game}}
  probes:
  - name: idle
    containerName: main
    probe: {exec: {command: [cat, /tmp/idle]}, periodSeconds: 1}
    podConditionType: game.io/idle
    markerPolicy:
    - {state: Succeeded, labels: {idle: "true"}}
    - {state: Failed, annotations: {controller.kubernetes.io/pod-deletion-cost: "10"}}
` },
  { name: 'ResourceDistribution shared-cm', yaml: `apiVersion: apps.kruise.io/v1alpha1
kind: ResourceDistribution
metadata: {name: shared-cm}
spec:
  resource: {apiVersion: v1, kind: ConfigMap, metadata: {name: shared}, data: {k: v1}}
  targets:
    includedNamespaces: {list: [{name: rd-3}]}
    namespaceLabelSelector: {matchLabels: {team: x}}
    excludedNamespaces: {list: [{name: rd-2}]}
` },
  { name: 'PodUnavailableBudget app-pub', yaml: `apiVersion: policy.kruise.io/v1alpha1
kind: PodUnavailableBudget
metadata: {name: app-pub, namespace: pb1}
spec:
  targetRef: {apiVersion: apps/v1, kind: Deployment, name: app}
  maxUnavailable: 1
` },
  { name: 'PersistentPodState db', yaml: `apiVersion: apps.kruise.io/v1alpha1
kind: PersistentPodState
metadata: {name: db, namespace: pp1}
spec:
  targetRef: {apiVersion: apps/v1, kind: StatefulSet, name: db}
  requiredPersistentTopology: {nodeTopologyKeys: [zone]}
  preferredPersistentTopology: [{weight: 100, preference: {nodeTopologyKeys: [kubernetes.io/hostname]}}]
` },
];

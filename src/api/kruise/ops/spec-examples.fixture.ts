/**
 * Test data: the manifest examples of /work/shared/spec/{jobs-sidecars-ops,
 * multidomain-protection-architecture}.md for the ops kinds (copied verbatim; a test checks they
 * still match the spec files when those are present), plus manifests built from the scenario
 * text of the same specs.
 */

export interface Example { name: string; yaml: string }

/** Every YAML block of the two specs whose apiVersion is apps.kruise.io / policy.kruise.io, minus workloads. */
export const specExamples: Example[] = [
  { name: 'jobs-sidecars-ops.md 1.4 bcj-ok', yaml: `apiVersion: apps.kruise.io/v1beta1
kind: BroadcastJob
metadata: {name: bcj-ok, namespace: t}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: w, image: busybox:1.36, command: [sh, -c, "exit 0"]}]
` },
  { name: 'jobs-sidecars-ops.md 2.4 acj-b', yaml: `apiVersion: apps.kruise.io/v1beta1
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
  { name: 'jobs-sidecars-ops.md 3.5 log-agent', yaml: `apiVersion: apps.kruise.io/v1beta1
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
  { name: 'jobs-sidecars-ops.md 4.5 crr-1', yaml: `apiVersion: apps.kruise.io/v1beta1
kind: ContainerRecreateRequest
metadata: {name: crr-1, namespace: t}
spec:
  podName: p1
  containers: [{name: app}]
  strategy: {minStartedSeconds: 2}
  ttlSecondsAfterFinished: 60
` },
  { name: 'jobs-sidecars-ops.md 5.7 pull-nginx', yaml: `apiVersion: apps.kruise.io/v1beta1
kind: ImagePullJob
metadata: {name: pull-nginx, namespace: t}
spec:
  image: nginx:1.25
  parallelism: 2
  completionPolicy: {type: Always, ttlSecondsAfterFinished: 30}
` },
  { name: 'jobs-sidecars-ops.md 8.5 idle', yaml: `apiVersion: apps.kruise.io/v1alpha1
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
  { name: 'multidomain-protection-architecture.md C.5 shared-cm', yaml: `apiVersion: apps.kruise.io/v1alpha1
kind: ResourceDistribution
metadata: {name: shared-cm}
spec:
  resource: {apiVersion: v1, kind: ConfigMap, metadata: {name: shared}, data: {k: v1}}
  targets:
    includedNamespaces: {list: [{name: rd-3}]}
    namespaceLabelSelector: {matchLabels: {team: x}}
    excludedNamespaces: {list: [{name: rd-2}]}
` },
  { name: 'multidomain-protection-architecture.md E.6 app-pub', yaml: `apiVersion: policy.kruise.io/v1alpha1
kind: PodUnavailableBudget
metadata: {name: app-pub, namespace: pb1}
spec:
  targetRef: {apiVersion: apps/v1, kind: Deployment, name: app}
  maxUnavailable: 1
` },
  { name: 'multidomain-protection-architecture.md F.5 db', yaml: `apiVersion: apps.kruise.io/v1alpha1
kind: PersistentPodState
metadata: {name: db, namespace: pp1}
spec:
  targetRef: {apiVersion: apps/v1, kind: StatefulSet, name: db}
  requiredPersistentTopology: {nodeTopologyKeys: [zone]}
  preferredPersistentTopology: [{weight: 100, preference: {nodeTopologyKeys: [kubernetes.io/hostname]}}]
` },
];

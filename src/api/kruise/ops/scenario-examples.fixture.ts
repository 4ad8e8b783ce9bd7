/**
 * Test data: manifests described in the scenario text of the two specs (v1alpha1 variants,
 * optional fields, the kinds without a YAML block), all valid against the CRD schemas. Webhook
 * rejections of the scenarios (empty selectors, `timeZone: Local`...) are not schema errors and
 * are therefore valid here too.
 */
import type { Example } from './spec-examples.fixture.js';
import { moreScenarioExamples } from './scenario-examples-2.fixture.js';

export const scenarioExamples: Example[] = [
  { name: 'BroadcastJob v1alpha1, Never, Pause, percent parallelism', yaml: `apiVersion: apps.kruise.io/v1alpha1
kind: BroadcastJob
metadata: {name: bcj-ok, namespace: t}
spec:
  parallelism: "50%"
  paused: false
  completionPolicy: {type: Never}
  failurePolicy: {type: Pause, restartLimit: 3}
  template: {metadata: {labels: {broadcastjob-name: x}}, spec: {restartPolicy: OnFailure, containers: [{name: w, image: busybox}]}}
status: {phase: running, desired: 3, active: 1, succeeded: 1, failed: 1, startTime: "2024-01-01T00:00:00Z",
  conditions: [{type: Complete, status: "True", reason: Complete, lastProbeTime: "2024-01-01T00:00:00Z"}]}
` },
  { name: 'AdvancedCronJob v1alpha1 with a Job template', yaml: `apiVersion: apps.kruise.io/v1alpha1
kind: AdvancedCronJob
metadata: {name: acj-j, namespace: t}
spec:
  schedule: "0 9 * * *"
  timeZone: Asia/Shanghai
  concurrencyPolicy: Forbid
  startingDeadlineSeconds: 30
  successfulJobsHistoryLimit: 1
  failedJobsHistoryLimit: 0
  paused: true
  template:
    jobTemplate: {metadata: {labels: {a: b}}, spec: {template: {spec: {restartPolicy: Never, containers: [{name: w, image: busybox}]}}}}
status: {type: Job, lastScheduleTime: "2024-01-01T09:00:00Z", active: [{apiVersion: batch/v1, kind: Job, name: acj-j-1704099600, namespace: t}]}
` },
  { name: 'AdvancedCronJob v1beta1 with an ImageListPullJob template', yaml: `apiVersion: apps.kruise.io/v1beta1
kind: AdvancedCronJob
metadata: {name: acj-i, namespace: t}
spec:
  schedule: "@hourly"
  template:
    imageListPullJobTemplate:
      metadata: {labels: {from: acj}}
      spec:
        images: [nginx:1.25, busybox:1.36]
        completionPolicy: {type: Always, activeDeadlineSeconds: 1200}
        pullPolicy: {timeoutSeconds: 600, backoffLimit: 3}
` },
  { name: 'SidecarSet v1alpha1 with namespace and every strategy', yaml: `apiVersion: apps.kruise.io/v1alpha1
kind: SidecarSet
metadata: {name: envoy, labels: {apps.kruise.io/sidecarset-custom-version: v2}, annotations: {apps.kruise.io/sidecarset-canary: "true", apps.kruise.io/sidecarset-base: log-agent}}
spec:
  namespace: ns-a
  namespaceSelector: {matchExpressions: [{key: team, operator: In, values: [a]}]}
  selector: {matchLabels: {app: web}}
  initContainers: [{name: n, image: busybox, restartPolicy: Always, podInjectPolicy: AfterAppContainer}]
  containers:
  - name: envoy
    image: envoy:1
    podInjectPolicy: AfterAppContainer
    upgradeStrategy: {upgradeType: HotUpgrade, hotUpgradeEmptyImage: "empty:1"}
    shareVolumePolicy: {type: enabled}
    shareVolumeDevicePolicy: {type: disabled}
    transferEnv:
    - {sourceContainerName: main, envName: TZ}
    - {sourceContainerNameFrom: {fieldRef: {apiVersion: v1, fieldPath: "metadata.labels['main']"}}, envNames: [A, B]}
    resourcesPolicy: {targetContainersMode: sum, targetContainersNameRegex: ".*", resourcesExpr: {limits: {cpu: "cpu*50%", memory: 200Mi}, requests: {cpu: 50m}}}
    env: [{name: X, valueFrom: {fieldRef: {fieldPath: metadata.name}}}]
  volumes: [{name: logs, emptyDir: {}}]
  imagePullSecrets: [{name: reg}]
  revisionHistoryLimit: 5
  patchPodMetadata: [{annotations: {oom-score: '{"envoy": 1}'}, patchPolicy: MergePatchJson}]
  updateStrategy:
    type: RollingUpdate
    paused: false
    partition: "20%"
    maxUnavailable: 1
    priorityStrategy: {weightPriority: [{weight: 50, matchSelector: {matchLabels: {tier: a}}}]}
    scatterStrategy: [{key: zone, value: "*"}]
  injectionStrategy: {paused: false, revision: {customVersion: v1, policy: Partial}}
status: {matchedPods: 1, updatedPods: 1, readyPods: 1, updatedReadyPods: 1, observedGeneration: 2, latestRevision: envoy-abc, collisionCount: 0}
` },
  { name: 'SidecarSet v1beta1 with customVersion and order priority', yaml: `apiVersion: apps.kruise.io/v1beta1
kind: SidecarSet
metadata: {name: native}
spec:
  customVersion: v3
  selector: {matchLabels: {app: web}}
  initContainers: [{name: n, image: busybox, restartPolicy: Always}]
  updateStrategy: {type: NotUpdate, priorityStrategy: {orderPriority: [{orderedKey: k}]}, selector: {matchLabels: {canary: "true"}}}
  injectionStrategy: {revision: {revisionName: native-123}}
` },
  { name: 'ContainerRecreateRequest v1alpha1 after admission', yaml: `apiVersion: apps.kruise.io/v1alpha1
kind: ContainerRecreateRequest
metadata:
  name: crr-2
  namespace: t
  labels: {crr.apps.kruise.io/pod-uid: u1, crr.apps.kruise.io/node-name: n1, crr.apps.kruise.io/active: "true"}
  annotations: {crr.apps.kruise.io/unready-acquired: "2024-01-01T00:00:00Z"}
spec:
  podName: p1
  activeDeadlineSeconds: 5
  containers:
  - name: app
    preStop: {httpGet: {path: /stop, port: http, scheme: HTTP}}
    ports: [{name: http, containerPort: 8080, protocol: TCP}]
    statusContext: {containerID: "containerd://abc", restartCount: 0}
  - {name: side, preStop: {exec: {command: [sh, -c, "sleep 1"]}}}
  strategy: {failurePolicy: Ignore, orderedRecreate: true, forceRecreate: true, terminationGracePeriodSeconds: 30, unreadyGracePeriodSeconds: 3, minStartedSeconds: 2}
status: {phase: Recreating, containerRecreateStates: [{name: app, phase: Succeeded, isKilled: true}, {name: side, phase: Pending}]}
` },
  { name: 'ContainerRecreateRequest v1beta1 status', yaml: `apiVersion: apps.kruise.io/v1beta1
kind: ContainerRecreateRequest
metadata: {name: crr-3, namespace: t}
spec: {podName: p1, containers: [{name: app}]}
status:
  phase: Completed
  completionTime: "2024-01-01T00:00:05Z"
  message: pod has gone
  containerStatusSnapshot: [{name: app, ready: true, restartCount: 1, containerID: "containerd://def"}]
  conditions: [{type: PreRecreateGrace, status: "True", reason: PreRecreateGrace, message: "", lastTransitionTime: "2024-01-01T00:00:00Z"}]
` },
  ...moreScenarioExamples,
];

/**
 * Printers for CSIDriver, CSINode and VolumeAttachment, with kube-apiserver 1.32's column
 * descriptions (CSIStorageCapacity has none: NAME and CREATED AT).
 */
import type { ColumnDefinition, TablePrinter } from '../../api/resource.js';
import { ageSince } from './age.js';
import { ageColumn, col, nameColumn, printer } from './columns.js';
import { arrayAt, asString, createdAt, nameOf, stringAt, valueAt } from './fields.js';

const csiDriverColumns: ColumnDefinition[] = [
  col("AttachRequired", "boolean",
    "attachRequired indicates this CSI volume driver requires an attach operation (because it implements the CSI ControllerPublishVolume() method), and that the Kubernetes attach detach controller should call the attach volume interface which checks the volumeattachment status and waits until the volume is attached before proceeding to mounting. The CSI external-attacher coordinates with CSI volume driver and updates the volumeattachment status when the attach operation is complete. If the CSIDriverRegistry feature gate is enabled and the value is specified to false, the attach operation will be skipped. Otherwise the attach operation will be called.\n\nThis field is immutable."),
  col("PodInfoOnMount", "boolean",
    "podInfoOnMount indicates this CSI volume driver requires additional pod information (like podName, podUID, etc.) during mount operations, if set to true. If set to false, pod information will not be passed on mount. Default is false.\n\nThe CSI driver specifies podInfoOnMount as part of driver deployment. If true, Kubelet will pass pod information as VolumeContext in the CSI NodePublishVolume() calls. The CSI driver is responsible for parsing and validating the information passed in as VolumeContext.\n\nThe following VolumeContext will be passed if podInfoOnMount is set to true. This list might grow, but the prefix will be used. \"csi.storage.k8s.io/pod.name\": pod.Name \"csi.storage.k8s.io/pod.namespace\": pod.Namespace \"csi.storage.k8s.io/pod.uid\": string(pod.UID) \"csi.storage.k8s.io/ephemeral\": \"true\" if the volume is an ephemeral inline volume\n                                defined by a CSIVolumeSource, otherwise \"false\"\n\n\"csi.storage.k8s.io/ephemeral\" is a new feature in Kubernetes 1.16. It is only required for drivers which support both the \"Persistent\" and \"Ephemeral\" VolumeLifecycleMode. Other drivers can leave pod info disabled and/or ignore this field. As Kubernetes 1.15 doesn't support this field, drivers can only support one mode when deployed on such a cluster and the deployment determines which mode that is, for example via a command line parameter of the driver.\n\nThis field was immutable in Kubernetes < 1.29 and now is mutable."),
  col("StorageCapacity", "boolean",
    "storageCapacity indicates that the CSI volume driver wants pod scheduling to consider the storage capacity that the driver deployment will report by creating CSIStorageCapacity objects with capacity information, if set to true.\n\nThe check can be enabled immediately when deploying a driver. In that case, provisioning new volumes with late binding will pause until the driver deployment has published some suitable CSIStorageCapacity object.\n\nAlternatively, the driver can be deployed with the field unset or false and it can be flipped later when storage capacity information has been published.\n\nThis field was immutable in Kubernetes <= 1.22 and now is mutable."),
  col("TokenRequests", "string",
    "tokenRequests indicates the CSI driver needs pods' service account tokens it is mounting volume for to do necessary authentication. Kubelet will pass the tokens in VolumeContext in the CSI NodePublishVolume calls. The CSI driver should parse and validate the following VolumeContext: \"csi.storage.k8s.io/serviceAccount.tokens\": {\n  \"<audience>\": {\n    \"token\": <token>,\n    \"expirationTimestamp\": <expiration timestamp in RFC3339>,\n  },\n  ...\n}\n\nNote: Audience in each TokenRequest should be different and at most one token is empty string. To receive a new token after expiry, RequiresRepublish can be used to trigger NodePublishVolume periodically."),
  col("RequiresRepublish", "boolean",
    "requiresRepublish indicates the CSI driver wants `NodePublishVolume` being periodically called to reflect any possible change in the mounted volume. This field defaults to false.\n\nNote: After a successful initial NodePublishVolume call, subsequent calls to NodePublishVolume should only update the contents of the volume. New mount points will not be seen by a running container."),
  col("Modes", "string",
    "volumeLifecycleModes defines what kind of volumes this CSI volume driver supports. The default if the list is empty is \"Persistent\", which is the usage defined by the CSI specification and implemented in Kubernetes via the usual PV/PVC mechanism.\n\nThe other mode is \"Ephemeral\". In this mode, volumes are defined inline inside the pod spec with CSIVolumeSource and their lifecycle is tied to the lifecycle of that pod. A driver has to be aware of this because it is only going to get a NodePublishVolume call for such a volume.\n\nFor more information about implementing this mode, see https://kubernetes-csi.github.io/docs/ephemeral-local-volumes.html A driver can support one or more of these modes and more modes may be added in the future.\n\nThis field is beta. This field is immutable."),
];
const csiNodeColumns: ColumnDefinition[] = [
  col("Drivers", "integer",
    "Drivers indicates the number of CSI drivers registered on the node"),
];
const volumeAttachmentColumns: ColumnDefinition[] = [
  { name: "Attacher", type: "string", format: "name", priority: 0,
    description: "attacher indicates the name of the volume driver that MUST handle this request. This is the name returned by GetPluginName()." },
  col("PV", "string",
    "persistentVolumeName represents the name of the persistent volume to attach."),
  col("Node", "string",
    "nodeName represents the node that the volume should be attached to."),
  col("Attached", "boolean",
    "attached indicates the volume is successfully attached. This field must only be set by the entity completing the attach operation, i.e. the external-attacher."),
];
const audiences = (d: unknown): string => {
  const requests = valueAt(d, 'spec', 'tokenRequests');
  return Array.isArray(requests) ? requests.map((r) => stringAt(r, 'audience')).join(',') : '<unset>';
};

export const csiDriverPrinter: TablePrinter = printer([nameColumn(), ...csiDriverColumns, ageColumn()], (d, now) => [
  nameOf(d),
  valueAt(d, 'spec', 'attachRequired') === true,
  valueAt(d, 'spec', 'podInfoOnMount') === true,
  valueAt(d, 'spec', 'storageCapacity') === true,
  audiences(d),
  valueAt(d, 'spec', 'requiresRepublish') === true,
  arrayAt(d, 'spec', 'volumeLifecycleModes').map(asString).join(','),
  ageSince(createdAt(d), now),
]);

export const csiNodePrinter: TablePrinter = printer([nameColumn(), ...csiNodeColumns, ageColumn()], (n, now) => [
  nameOf(n), arrayAt(n, 'spec', 'drivers').length, ageSince(createdAt(n), now),
]);

export const volumeAttachmentPrinter: TablePrinter = printer([nameColumn(), ...volumeAttachmentColumns, ageColumn()], (va, now) => [
  nameOf(va),
  stringAt(va, 'spec', 'attacher'),
  stringAt(va, 'spec', 'source', 'persistentVolumeName'),
  stringAt(va, 'spec', 'nodeName'),
  valueAt(va, 'status', 'attached') === true,
  ageSince(createdAt(va), now),
]);

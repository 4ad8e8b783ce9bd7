/**
 * Printers for PersistentVolumeClaim, PersistentVolume and StorageClass.
 */
import type { TablePrinter } from '../../api/resource.js';
import { ageSince } from './age.js';
import { ageColumn, col, nameColumn, printer, wide } from './columns.js';
import { asString, createdAt, nameOf, objectAt, stringAt, valueAt } from './fields.js';
import { accessModes } from './format.js';

const betaClassAnnotation = 'volume.beta.kubernetes.io/storage-class';

/** The beta annotation wins over spec.storageClassName, as in the upstream helper. */
function storageClassOf(obj: unknown): string {
  const annotations = objectAt(obj, 'metadata', 'annotations');
  if (betaClassAnnotation in annotations) return asString(annotations[betaClassAnnotation]);
  return stringAt(obj, 'spec', 'storageClassName');
}

function orUnset(value: unknown): string {
  return typeof value === 'string' ? value : '<unset>';
}

function terminatingOr(obj: unknown, phase: string): string {
  return valueAt(obj, 'metadata', 'deletionTimestamp') !== undefined ? 'Terminating' : phase;
}

export const persistentVolumeClaimPrinter: TablePrinter = printer(
  [
    nameColumn(),
    col('Status', 'string', 'phase represents the current phase of PersistentVolumeClaim.'),
    col('Volume', 'string', 'volumeName is the binding reference to the PersistentVolume backing this claim.'),
    col('Capacity', 'string', 'capacity represents the actual resources of the underlying volume.'),
    col('Access Modes', 'string', 'accessModes contains the actual access modes the volume backing the PVC has.'),
    col('StorageClass', 'string', 'StorageClass of the pvc'),
    col('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pvc'),
    ageColumn(),
    wide('VolumeMode', 'string', 'volumeMode defines what type of volume is required by the claim.'),
  ],
  (pvc, now) => {
    const bound = stringAt(pvc, 'spec', 'volumeName') !== '';
    return [
      nameOf(pvc),
      terminatingOr(pvc, stringAt(pvc, 'status', 'phase')),
      stringAt(pvc, 'spec', 'volumeName'),
      bound ? stringAt(pvc, 'status', 'capacity', 'storage') : '',
      bound ? accessModes(valueAt(pvc, 'status', 'accessModes')) : '',
      storageClassOf(pvc),
      orUnset(valueAt(pvc, 'spec', 'volumeAttributesClassName')),
      ageSince(createdAt(pvc), now),
      orUnset(valueAt(pvc, 'spec', 'volumeMode')),
    ];
  },
);

export const persistentVolumePrinter: TablePrinter = printer(
  [
    nameColumn(),
    col('Capacity', 'string', 'capacity is the description of the persistent volume\'s resources and capacity.'),
    col('Access Modes', 'string', 'accessModes contains all ways the volume can be mounted.'),
    col('Reclaim Policy', 'string', 'persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim.'),
    col('Status', 'string', 'phase indicates if a volume is available, bound to a claim, or released by a claim.'),
    col('Claim', 'string', 'claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim.'),
    col('StorageClass', 'string', 'StorageClass of the pv'),
    col('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pv'),
    col('Reason', 'string', 'reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.'),
    ageColumn(),
    wide('VolumeMode', 'string', 'volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state.'),
  ],
  (pv, now) => {
    const claim = valueAt(pv, 'spec', 'claimRef');
    return [
      nameOf(pv),
      stringAt(pv, 'spec', 'capacity', 'storage'),
      accessModes(valueAt(pv, 'spec', 'accessModes')),
      stringAt(pv, 'spec', 'persistentVolumeReclaimPolicy'),
      terminatingOr(pv, stringAt(pv, 'status', 'phase')),
      claim ? `${stringAt(claim, 'namespace')}/${stringAt(claim, 'name')}` : '',
      storageClassOf(pv),
      orUnset(valueAt(pv, 'spec', 'volumeAttributesClassName')),
      stringAt(pv, 'status', 'reason'),
      ageSince(createdAt(pv), now),
      orUnset(valueAt(pv, 'spec', 'volumeMode')),
    ];
  },
);

function isDefaultClass(sc: unknown): boolean {
  const a = objectAt(sc, 'metadata', 'annotations');
  return a['storageclass.kubernetes.io/is-default-class'] === 'true' || a['storageclass.beta.kubernetes.io/is-default-class'] === 'true';
}

export const storageClassPrinter: TablePrinter = printer(
  [
    nameColumn(),
    col('Provisioner', 'string', 'provisioner indicates the type of the provisioner.'),
    col('ReclaimPolicy', 'string', 'reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class.'),
    col('VolumeBindingMode', 'string', 'volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.'),
    col('AllowVolumeExpansion', 'string', 'allowVolumeExpansion shows whether the storage class allow volume expand.'),
    ageColumn(),
  ],
  (sc, now) => [
    isDefaultClass(sc) ? `${nameOf(sc)} (default)` : nameOf(sc),
    stringAt(sc, 'provisioner'),
    stringAt(sc, 'reclaimPolicy') || 'Delete',
    stringAt(sc, 'volumeBindingMode') || 'Immediate',
    valueAt(sc, 'allowVolumeExpansion') === true,
    ageSince(createdAt(sc), now),
  ],
);

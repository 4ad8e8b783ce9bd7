/**
 * SidecarSet defaulting (msidecarset.kb.io, create and update): the Kruise defaults, full core
 * Container and Volume defaulting (imagePullPolicy by tag, probe timings ...), then the two hash
 * annotations over the defaulted containers.
 */
import type { KObject } from '../../api/meta.js';
import {
  defaultSidecarSet, SidecarSetHashAnnotation, SidecarSetHashWithoutImageAnnotation, type SidecarSet,
} from '../../api/kruise/ops/index.js';
import { defaultContainer } from '../../machinery/podspec/container-defaults.js';
import { defaultVolume } from '../../machinery/podspec/pod-spec-defaults.js';
import type { AdmissionInput } from '../kind-webhook.js';
import { sidecarSetHash, sidecarSetHashWithoutImage } from './hash.js';

export function defaultSidecarSetObject(obj: SidecarSet): SidecarSet {
  const out = defaultSidecarSet(obj, { container: defaultContainer, volume: defaultVolume });
  const spec = out.spec ?? {};
  out.metadata = {
    ...out.metadata,
    annotations: {
      ...out.metadata?.annotations,
      [SidecarSetHashAnnotation]: sidecarSetHash(spec),
      [SidecarSetHashWithoutImageAnnotation]: sidecarSetHashWithoutImage(spec),
    },
  };
  return out;
}

export function defaultSidecarSetRequest(input: AdmissionInput): KObject {
  const obj = input.object;
  if (!obj || input.request.subResource) return obj as KObject;
  return defaultSidecarSetObject(obj as SidecarSet) as KObject;
}

/**
 * SidecarSet defaulting (msidecarset.kb.io, create and update): the Kruise defaults, full core
 * Container and Volume defaulting (imagePullPolicy by tag, probe timings ...), then the two hash
 * annotations over the defaulted containers. An update that leaves what a hash covers as it was
 * keeps the recorded value, which may be OpenKruise's (docs/design/takeover.md §4).
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
  const out = defaultSidecarSetObject(obj as SidecarSet);
  // Each recorded hash whose content did not change stays (an image change keeps the one without image).
  const recorded = (input.oldObject as SidecarSet | undefined)?.metadata?.annotations;
  if (recorded) {
    const before = defaultSidecarSetObject(input.oldObject as SidecarSet).metadata?.annotations ?? {};
    const annotations = out.metadata!.annotations!;
    for (const key of [SidecarSetHashAnnotation, SidecarSetHashWithoutImageAnnotation]) {
      if (recorded[key] && before[key] === annotations[key]) annotations[key] = recorded[key];
    }
  }
  return out as KObject;
}

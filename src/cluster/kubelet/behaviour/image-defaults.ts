/**
 * What an image does when the pod gives it no command (§9). Distribution and language images
 * default to an interactive shell or REPL: without a terminal (no `stdin: true`) it reads end of
 * input and exits 0 at once, so `kubectl run x --image=busybox` crash-loops and a busybox Job with
 * no command completes, as on a real node. Server images serve until stopped, and so does any
 * image we do not know (most images are servers).
 */
import { parseImage } from '../../../daemon/cri/image-ref.js';

/** Images whose default command is a shell or a REPL reading stdin. */
const interactiveImages = new Set([
  'busybox', 'alpine', 'ubuntu', 'debian', 'centos', 'fedora', 'bash', 'rockylinux', 'almalinux', 'amazonlinux',
  'oraclelinux', 'archlinux', 'photon', 'ubi', 'ubi8', 'ubi9', 'ubi-minimal', 'ubi8-minimal', 'ubi9-minimal',
  'python', 'node', 'ruby', 'golang', 'perl', 'php', 'openjdk', 'eclipse-temurin', 'amazoncorretto',
]);

/** Well-known server images (documentation: unknown images behave the same way). */
export const serverImages = ['nginx', 'httpd', 'redis', 'postgres', 'mysql', 'mariadb', 'mongo', 'memcached', 'rabbitmq', 'pause'];

export type ImageDefault = { kind: 'interactive' | 'server' | 'unknown'; name: string };

/** The image's short name (`registry.k8s.io/e2e-test-images/busybox:1.36` → `busybox`) and its kind. */
export function imageDefault(image: string): ImageDefault {
  const repository = parseImage(image || 'unknown').repository;
  const name = repository.slice(repository.lastIndexOf('/') + 1);
  if (interactiveImages.has(name)) return { kind: 'interactive', name };
  return { kind: serverImages.includes(name) ? 'server' : 'unknown', name };
}

/** The controller-manager pieces of the embedded cluster, registered explicitly (no import side effects). */
import type { Manager } from '../../runtime/manager.js';

type Setup = (manager: Manager) => void;

const coreControllers: { name: string; setup: Setup }[] = [];

export function setupCoreControllers(manager: Manager): void {
  for (const c of coreControllers) c.setup(manager);
}

/**
 * The RollingUpdate step of a pass (docs/design/advanced-daemonset.md §9): pick the nodes partition and
 * selector allow, plan within maxUnavailable/maxSurge, then update in place what InPlaceIfPossible
 * allows and delete (or surge-create) the rest. Returns how many pod writes were issued.
 */
import type { InPlaceUpdater } from '../../control/inplaceupdate/index.js';
import { isInPlaceIfPossible, rolloutBudget } from './budget.js';
import type { TemplateHistory } from '../../control/revision/index.js';
import { updatePodsInPlace } from './inplace.js';
import type { ClusterView } from './node-view.js';
import type { PassContext } from './pass.js';
import { syncNodes } from './pod-control.js';
import { planRollingUpdate } from './rolling-update.js';
import { nodesToUpdate } from './rollout-nodes.js';
import type { ControllerRevision } from '../../api/core/index.js';

export async function rollingUpdate(c: PassContext, view: ClusterView, history: TemplateHistory, updater: InPlaceUpdater): Promise<void> {
  const desired = view.nodes.filter((n) => n.placement.shouldRun).length;
  const { maxSurge, maxUnavailable } = rolloutBudget(c.ds, desired);
  const nodes = nodesToUpdate(c.ds, view.nodes, history.hash);
  const plan = planRollingUpdate({ ds: c.ds, nodes, hash: history.hash, now: c.now, maxSurge, maxUnavailable });
  if (maxSurge > 0) {
    await syncNodes(c, plan.replace, plan.createOn, history.hash);
    return;
  }
  let toDelete = plan.replace;
  if (isInPlaceIfPossible(c.ds) && toDelete.length > 0) {
    toDelete = await updatePodsInPlace(c, updater, toDelete, history.revisions as ControllerRevision[], history.current);
  }
  await syncNodes(c, toDelete, [], history.hash);
}

/** Watch start semantics, event sequences, selector transitions and resourceVersion order. */
import type { DiffApi, Json, WatchEvent } from './api.js';
import { configMap, deployment, mergePatch, must, paths, query, type DiffCase } from './case-kit.js';
import { eventSummary, relevant, rvMove } from './normalize.js';

const count = (n: number) => (events: WatchEvent[]) => eventSummary(events).length >= n;

/** RV moves between consecutive events: all 'increased' on a correct server. */
function rvSteps(events: WatchEvent[]): string[] {
  const rvs = relevant(events).map((e) => e.object.metadata.resourceVersion as string);
  return rvs.slice(1).map((rv, i) => rvMove(rvs[i], rv));
}

/** s leaves the app=in selection, changes while outside, comes back and changes again. */
async function selectionTransitions(api: DiffApi, ns: string): Promise<WatchEvent[]> {
  const created = must(await api.request('POST', paths.configMaps(ns), configMap('s', { app: 'in' })), 's');
  must(await api.request('POST', paths.configMaps(ns), configMap('other', { app: 'out' })), 'other');
  const w = await api.watch(`${paths.configMaps(ns)}${query({ watch: true, labelSelector: 'app=in', resourceVersion: created.body.metadata.resourceVersion })}`);
  must(await api.request('PATCH', paths.configMaps(ns, 'other'), { data: { k: 'x' } }, mergePatch), 'other');
  must(await api.request('PATCH', paths.configMaps(ns, 's'), { metadata: { labels: { app: 'out' } }, data: { k: 'leaving' } }, mergePatch), 'leave');
  must(await api.request('PATCH', paths.configMaps(ns, 's'), { data: { k: 'while-out' } }, mergePatch), 'outside');
  must(await api.request('PATCH', paths.configMaps(ns, 's'), { metadata: { labels: { app: 'in' } } }, mergePatch), 'enter');
  must(await api.request('PATCH', paths.configMaps(ns, 's'), { data: { k: 'back' } }, mergePatch), 'inside');
  const events = relevant(await w.until(count(3)));
  w.stop();
  return events;
}

export const watchCases: DiffCase[] = [
  {
    name: 'watch without resourceVersion: ADDED for existing objects, then live events',
    async run(api, { ns }) {
      for (const n of ['b', 'a']) must(await api.request('POST', paths.configMaps(ns), configMap(n, { w: '1' })), n);
      const w = await api.watch(`${paths.configMaps(ns)}${query({ watch: true, labelSelector: 'w=1' })}`);
      const initial = eventSummary(await w.until(count(2)));
      must(await api.request('POST', paths.configMaps(ns), configMap('c', { w: '1' })), 'c');
      must(await api.request('PATCH', paths.configMaps(ns, 'a'), { data: { k: 'changed' } }, mergePatch), 'patch a');
      must(await api.request('DELETE', paths.configMaps(ns, 'b')), 'delete b');
      const all = await w.until(count(5));
      w.stop();
      const live = relevant(all).slice(2);
      return { initial: initial.sort(), live: eventSummary(live), liveRvSteps: rvSteps(live) };
    },
  },
  {
    name: 'watch with resourceVersion=0: ADDED for existing objects',
    async run(api, { ns }) {
      must(await api.request('POST', paths.configMaps(ns), configMap('a', { w: '1' })), 'a');
      const w = await api.watch(`${paths.configMaps(ns)}${query({ watch: true, resourceVersion: 0 })}`);
      const initial = eventSummary(await w.until(count(1)));
      must(await api.request('PATCH', paths.configMaps(ns, 'a'), { data: { k: 'changed' } }, mergePatch), 'patch a');
      const all = eventSummary(await w.until(count(2)));
      w.stop();
      return { initial, all };
    },
  },
  {
    name: 'watch from resourceVersion N: only later events, in order',
    async run(api, { ns }) {
      must(await api.request('POST', paths.configMaps(ns), configMap('a')), 'a');
      const listRv = (await api.request('GET', paths.configMaps(ns))).body.metadata.resourceVersion;
      must(await api.request('PATCH', paths.configMaps(ns, 'a'), { data: { k: 'v2' } }, mergePatch), 'patch');
      must(await api.request('POST', paths.configMaps(ns), configMap('b')), 'b');
      must(await api.request('DELETE', paths.configMaps(ns, 'a')), 'delete');
      const w = await api.watch(`${paths.configMaps(ns)}${query({ watch: true, resourceVersion: listRv })}`);
      const events = relevant(await w.until(count(3)));
      w.stop();
      return { events: eventSummary(events), rvSteps: rvSteps(events), modifiedData: events[0]?.object?.data };
    },
  },
  {
    name: 'watch: finalizer deletion is MODIFIED then DELETED',
    async run(api, { ns }) {
      const created = must(await api.request('POST', paths.configMaps(ns), { ...configMap('f'), metadata: { name: 'f', finalizers: ['example.com/keep'] } }), 'create');
      const w = await api.watch(`${paths.configMaps(ns)}${query({ watch: true, resourceVersion: created.body.metadata.resourceVersion })}`);
      must(await api.request('DELETE', paths.configMaps(ns, 'f')), 'delete');
      must(await api.request('PATCH', paths.configMaps(ns, 'f'), { metadata: { finalizers: null } }, mergePatch), 'unfinalize');
      const events = relevant(await w.until((e) => e.some((x) => x.type === 'DELETED')));
      w.stop();
      const view = (e: WatchEvent) => ({
        type: e.type, deleting: Boolean(e.object.metadata.deletionTimestamp), finalizers: e.object.metadata.finalizers ?? null,
        grace: e.object.metadata.deletionGracePeriodSeconds ?? null,
      });
      return { events: events.map(view), rvSteps: rvSteps(events) };
    },
  },
  {
    name: 'watch: objects leaving and entering the selection',
    async run(api, { ns }) {
      const events = await selectionTransitions(api, ns);
      return { events: eventSummary(events), rvSteps: rvSteps(events), lastData: events[2]?.object?.data?.k ?? null };
    },
  },
  {
    name: 'watch: the DELETED for an object leaving the selection shows its previous state',
    async run(api, { ns }) {
      const events = await selectionTransitions(api, ns);
      return { deletedLabels: events[0]?.object?.metadata?.labels ?? null, deletedData: events[0]?.object?.data ?? null };
    },
  },
  {
    name: 'watch: DELETED carries the last state with a newer resourceVersion',
    async run(api, { ns }) {
      must(await api.request('POST', paths.configMaps(ns), configMap('x')), 'create');
      const patched = must(await api.request('PATCH', paths.configMaps(ns, 'x'), { data: { k: 'last' } }, mergePatch), 'patch');
      const w = await api.watch(`${paths.configMaps(ns)}${query({ watch: true, resourceVersion: patched.body.metadata.resourceVersion })}`);
      must(await api.request('DELETE', paths.configMaps(ns, 'x')), 'delete');
      const events = relevant(await w.until(count(1)));
      w.stop();
      const ev = events[0];
      return {
        events: eventSummary(events), data: ev?.object?.data,
        rvVsLastWrite: rvMove(patched.body.metadata.resourceVersion, ev?.object?.metadata?.resourceVersion),
      };
    },
  },
  {
    name: 'watch: metadata.name field selector with bookmarks allowed (kubectl wait)',
    async run(api, { ns }) {
      for (const n of ['target', 'noise']) must(await api.request('POST', paths.configMaps(ns), configMap(n)), n);
      const list = await api.request('GET', `${paths.configMaps(ns)}${query({ fieldSelector: 'metadata.name=target', limit: 500, resourceVersion: 0 })}`);
      const rv = list.body.metadata.resourceVersion;
      const w = await api.watch(`${paths.configMaps(ns)}${query({ allowWatchBookmarks: true, fieldSelector: 'metadata.name=target', resourceVersion: rv, timeoutSeconds: 30, watch: true })}`);
      must(await api.request('DELETE', paths.configMaps(ns, 'noise')), 'noise');
      must(await api.request('DELETE', paths.configMaps(ns, 'target')), 'target');
      const events = await w.until((e) => e.some((x) => x.type === 'DELETED'));
      w.stop();
      return { listed: list.body.items.map((i: Json) => i.metadata.name), events: eventSummary(events) };
    },
  },
  {
    name: 'watch: timeoutSeconds ends the stream cleanly',
    async run(api, { ns }) {
      const started = Date.now();
      const w = await api.watch(`${paths.configMaps(ns)}${query({ watch: true, timeoutSeconds: 1, resourceVersion: 0 })}`);
      await w.until(() => w.ended(), 5_000);
      const elapsed = Date.now() - started;
      w.stop();
      return { ended: w.ended(), withinWindow: elapsed >= 900 && elapsed < 4_000, events: eventSummary(w.events) };
    },
  },
  {
    name: 'resourceVersion is one counter across kinds; lists return the current revision',
    async run(api, { ns }) {
      const cm1 = must(await api.request('POST', paths.configMaps(ns), configMap('one')), 'one');
      const dep = must(await api.request('POST', paths.deployments(ns), deployment('web')), 'deploy');
      const cm2 = must(await api.request('POST', paths.configMaps(ns), configMap('two')), 'two');
      const list = await api.request('GET', paths.deployments(ns));
      const rv = (r: { body: Json }) => r.body.metadata.resourceVersion as string;
      return {
        cm1ToDeploy: rvMove(rv(cm1), rv(dep)), deployToCm2: rvMove(rv(dep), rv(cm2)),
        deployListNotOlderThanCm2: BigInt(rv(list)) >= BigInt(rv(cm2)),
        rvIsDecimalString: /^[1-9][0-9]*$/.test(rv(list)),
      };
    },
  },
];

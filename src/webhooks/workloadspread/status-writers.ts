/** One WorkloadSpread status writer per client (per manager), shared by the pod create and delete steps. */
import type { Client } from '../../client/client.js';
import { SpreadStatusWriter } from '../../control/workloadspread/index.js';

const writers = new WeakMap<Client, SpreadStatusWriter>();

export function statusWriterFor(client: Client): SpreadStatusWriter {
  let writer = writers.get(client);
  if (!writer) writers.set(client, (writer = new SpreadStatusWriter(client)));
  return writer;
}

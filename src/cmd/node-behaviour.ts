/** `--node-behaviour FILE` of `kruise up` and `kruise nodes`: read and checked before anything starts. */
import { readFile } from 'node:fs/promises';
import { parseNodeBehaviour, type NodeBehaviour } from '../cluster/kubelet/index.js';

/** The file's behaviour; an unreadable or invalid file is an error naming the rule and field at fault. */
export async function loadNodeBehaviour(file: string | undefined): Promise<NodeBehaviour | undefined> {
  if (!file) return undefined;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new Error(`cannot read node behaviour file ${file}: ${(e as Error).message}`);
  }
  return parseNodeBehaviour(text, file);
}

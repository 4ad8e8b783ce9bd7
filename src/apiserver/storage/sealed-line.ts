/**
 * Every line the store writes carries a CRC-32 of its JSON (docs/design/storage.md §9):
 * `<json>\t<crc32 as 8 hex digits>\n`. JSON text never holds a raw tab, so the last tab splits
 * the two. A line whose checksum does not match was changed after it was written.
 */
import { crc32 } from 'node:zlib';

export function sealLine(json: string): string {
  return `${json}\t${crc32(json).toString(16).padStart(8, '0')}\n`;
}

/** The JSON of a sealed line (without its newline), or undefined when it does not verify. */
export function unsealLine(line: string): string | undefined {
  const tab = line.length - 9;
  if (tab < 0 || line.charCodeAt(tab) !== 9) return undefined;
  const json = line.slice(0, tab);
  const sum = Number.parseInt(line.slice(tab + 1), 16);
  return /^[0-9a-f]{8}$/.test(line.slice(tab + 1)) && crc32(json) === sum ? json : undefined;
}

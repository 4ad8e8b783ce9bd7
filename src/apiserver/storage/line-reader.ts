/**
 * Streams a file of newline-terminated records without loading it into one string. Lines split on
 * the byte 0x0A, which never occurs inside a multi-byte UTF-8 sequence, so offsets are exact bytes
 * (recovery truncates a torn tail at them).
 */
import { createReadStream } from 'node:fs';

export interface LinesRead {
  /** Byte offset just after the last newline: everything before it is whole lines. */
  wholeEnd: number;
  /** Bytes after the last newline (a record torn by a crash mid-write), 0 when none. */
  tailBytes: number;
}

/**
 * Calls `onLine(text, startOffset)` for every newline-terminated, non-empty line, then `onTail`
 * with the bytes after the last newline, if any.
 */
export async function readLines(
  path: string,
  onLine: (line: string, start: number) => void,
  onTail?: (tail: string, start: number) => void,
): Promise<LinesRead> {
  let carry: Buffer = Buffer.alloc(0);
  let carryStart = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    const buf = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    let lineStart = 0;
    for (let nl = buf.indexOf(0x0a); nl !== -1; nl = buf.indexOf(0x0a, lineStart)) {
      if (nl > lineStart) onLine(buf.toString('utf8', lineStart, nl), carryStart + lineStart);
      lineStart = nl + 1;
    }
    carry = buf.subarray(lineStart);
    carryStart += lineStart;
  }
  if (carry.length > 0) onTail?.(carry.toString('utf8'), carryStart);
  return { wholeEnd: carryStart, tailBytes: carry.length };
}

/**
 * Progress of a long command (docs/design/manager.md §13): finished steps as lines; the step under
 * way as one live line rewritten in place on a terminal, and elsewhere (logs, CI, pipes) as a plain
 * line each time its text changes.
 */
export interface Progress {
  /** A finished step: its own line. */
  line(text: string): void;
  /** The step under way. */
  live(text: string): void;
}

export function progressOn(stream: NodeJS.WritableStream & { isTTY?: boolean } = process.stdout): Progress {
  let shown = '';
  let open = false; // a live line without its newline yet (terminal only)
  const clear = () => { if (open) stream.write('\r\x1b[K'); open = false; };
  return {
    line(text) { clear(); stream.write(`${text}\n`); shown = ''; },
    live(text) {
      if (text === shown) return;
      shown = text;
      if (stream.isTTY) { clear(); stream.write(text); open = true; } else stream.write(`${text}\n`);
    },
  };
}

/**
 * exec and attach over any transport (docs/design/streaming.md §1): the client's channels (stdin,
 * stdout, stderr, resize) meet the kubelet's process, and its end is reported on the error channel
 * as the v4 protocol's Status: Success, or NonZeroExitCode with the code as a cause (kubectl prints
 * `command terminated with exit code N` and exits with N).
 */
import type { ProcessExit, ProcessSession } from '../../api/pod-streams.js';

/** What a transport offers a remote command: its channels, and how it ends. */
export interface CommandChannels {
  stdout?(data: Uint8Array | string): void;
  stderr?(data: Uint8Array | string): void;
  onStdin(listener: (data: Uint8Array) => void, end: () => void): void;
  /** Writes the final Status and closes everything. */
  finish(status: string): void;
  onClientGone(listener: () => void): void;
}

export function exitStatus(exit: ProcessExit, command: string[]): string {
  if ('error' in exit) {
    return JSON.stringify({ metadata: {}, status: 'Failure', message: exit.error, reason: 'InternalError', details: { causes: [{ message: exit.error }] }, code: 500 });
  }
  if (exit.exitCode === 0) return JSON.stringify({ metadata: {}, status: 'Success' });
  const why = `error executing command [${command.join(' ')}], exit code ${exit.exitCode}`;
  return JSON.stringify({
    metadata: {}, status: 'Failure', message: `command terminated with non-zero exit code: ${why}`, reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(exit.exitCode) }] },
  });
}

/** Starts the process with the transport's channels and reports its end on them. */
export async function runRemoteCommand(start: (io: { stdout(d: Uint8Array | string): void; stderr(d: Uint8Array | string): void }) => Promise<ProcessSession>,
  channels: CommandChannels, command: string[]): Promise<void> {
  let session: ProcessSession;
  try {
    session = await start({ stdout: (d) => channels.stdout?.(d), stderr: (d) => channels.stderr?.(d) });
  } catch (e) {
    channels.finish(exitStatus({ error: (e as Error).message }, command));
    return;
  }
  channels.onStdin((d) => session.stdin(d), () => session.closeStdin());
  channels.onClientGone(() => session.cancel());
  channels.finish(exitStatus(await session.done, command));
}

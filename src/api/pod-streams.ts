/**
 * The contract between the API server's streaming endpoints (pods/exec, attach, portforward, log)
 * and the kubelet of the node a pod runs on, as kube-apiserver reaches a kubelet's streaming server
 * (docs/design/streaming.md §1). The API server speaks the client protocols (WebSocket channels,
 * SPDY) and checks the request; the kubelet runs it. Declared here so neither side imports the other.
 */

/** The container a stream addresses. */
export interface ContainerTarget {
  namespace: string;
  pod: string;
  uid: string;
  container: string;
}

/** Where a process's output goes, and how the client ends it. */
export interface ProcessIO {
  stdout(data: Uint8Array | string): void;
  stderr(data: Uint8Array | string): void;
}

/** How a process ended: its exit code, or an error the runtime gave instead. */
export type ProcessExit = { exitCode: number } | { error: string };

/** A running exec or attach: input from the client, and its end. */
export interface ProcessSession {
  stdin(data: Uint8Array): void;
  closeStdin(): void;
  /** The client went away: stop the process (exec) or detach (attach). */
  cancel(): void;
  readonly done: Promise<ProcessExit>;
}

/** One forwarded connection to a pod's port. */
export interface PortConnection {
  write(data: Uint8Array): void;
  end(): void;
  /** Data the pod's listener sends, then its end (`error` when it failed). */
  onData(listener: (data: Uint8Array) => void): void;
  onEnd(listener: (error?: string) => void): void;
}

export interface LogOptions {
  previous: boolean;
  follow: boolean;
  timestamps: boolean;
  tailLines?: number;
  /** Only lines written at or after this wall-clock time (ms). */
  sinceMs?: number;
  limitBytes?: number;
}

/** A log being read: lines as they come, then the end. `stop` when the client leaves. */
export interface LogSink {
  write(text: string): void;
  end(): void;
}

/** A node's streaming server. Errors are thrown as Error with the message kube's kubelet gives. */
export interface NodeStreams {
  exec(target: ContainerTarget, command: string[], options: { stdin: boolean; tty: boolean }, io: ProcessIO): Promise<ProcessSession>;
  attach(target: ContainerTarget, options: { stdin: boolean; tty: boolean }, io: ProcessIO): Promise<ProcessSession>;
  portForward(target: Omit<ContainerTarget, 'container'>, port: number): Promise<PortConnection>;
  /** Starts reading the container's log into `sink`; resolves to the function that stops a follow. */
  logs(target: ContainerTarget, options: LogOptions, sink: LogSink): Promise<() => void>;
}

/** How the API server finds a node's streaming server (a kube-apiserver dials the kubelet). */
export interface KubeletConnections {
  forNode(nodeName: string): NodeStreams | undefined;
}

/**
 * What `kruise up` prints once it serves (docs/design/manager.md §9): a few lines a person needs,
 * the API server, the kubeconfig with the line to paste, the nodes, the gates. Pure, for a golden test.
 */
export interface UpSummaryInput {
  url: string;
  startedMs: number;
  kubeconfigPath: string;
  /** Set when `--update-kubeconfig` merged the `kruise` context into the user's kubeconfig. */
  mergedInto?: string;
  nodeNames: string[];
  daemons: boolean;
  manager: boolean;
  /** gateReportLines(): the gates on, then one warning per gate without effect. */
  gateLines: string[];
  dataDir: string;
  inMemory: boolean;
  /** Where `kruise up` serves the web dashboard (absent with --no-dashboard). */
  dashboardUrl?: string;
  dashboardActions?: boolean;
}

export function upSummary(s: UpSummaryInput): string[] {
  const nodes = s.nodeNames.length === 0 ? 'none' : `${s.nodeNames.join(', ')}${s.daemons ? ' (a kruise-daemon on each)' : ''}`;
  const kubectl = s.mergedInto
    ? [`  kubeconfig: context "kruise" merged into ${s.mergedInto}; use it with: kubectl config use-context kruise`]
    : [`  kubeconfig: ${s.kubeconfigPath}`, `    export KUBECONFIG=${s.kubeconfigPath}`];
  const manager = s.manager
    ? s.gateLines.map((l) => `  ${l}`)
    : [`  no Kruise manager in this process (--no-kruise-manager): attach one with \`kruise manager --kubeconfig ${s.kubeconfigPath}\``];
  return [
    `kruise control plane ready at ${s.url} in ${s.startedMs} ms with ${s.nodeNames.length} simulated nodes`,
    ...kubectl,
    `  nodes: ${nodes}`,
    ...(s.dashboardUrl ? [`  dashboard: ${s.dashboardUrl} (sign in with the kubeconfig's token${s.dashboardActions ? '; actions on' : '; read-only'})`] : []),
    ...manager,
    s.inMemory ? '  store: in memory (nothing survives a restart); Ctrl-C stops' : `  store: ${s.dataDir} (start again with the same --data-dir to resume); Ctrl-C stops`,
  ];
}

/** `host:port` flags (`--health-addr`, `--addr`); a missing host is `defaultHost` (`:10221` listens everywhere). */
export function splitAddress(addr: string, flag: string, defaultHost: string): [string, number] {
  const i = addr.lastIndexOf(':');
  const host = i > 0 ? addr.slice(0, i) : defaultHost;
  const port = Number(addr.slice(i + 1));
  if (i < 0 || !Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid ${flag} ${JSON.stringify(addr)}: expected [host]:port`);
  return [host, port];
}

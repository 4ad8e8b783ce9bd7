/**
 * The load of `bench:streaming`, spoken from Node as kubectl speaks it (docs/design/streaming.md §6):
 * an exec over a fresh TLS connection and WebSocket v5.channel.k8s.io per call, and `logs -f` as a
 * long HTTPS GET with timestamps.
 */
import https from 'node:https';
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import WebSocket from 'ws';

export interface Endpoint { host: string; port: number; ca: Buffer; token: string }

export async function endpointOf(kubeconfigPath: string): Promise<Endpoint> {
  const kc = parse(await readFile(kubeconfigPath, 'utf8')) as {
    clusters: { cluster: { server: string; 'certificate-authority-data': string } }[]; users: { user: { token: string } }[];
  };
  const url = new URL(kc.clusters[0].cluster.server);
  return { host: url.hostname, port: Number(url.port), ca: Buffer.from(kc.clusters[0].cluster['certificate-authority-data'], 'base64'), token: kc.users[0].user.token };
}

/** One exec round trip: upgrade, output, Status on the error channel; resolves with its milliseconds and stdout. */
export function execOnce(e: Endpoint, namespace: string, pod: string, command: string[]): Promise<{ ms: number; stdout: string; status: string }> {
  const started = performance.now();
  const query = [...command.map((c) => `command=${encodeURIComponent(c)}`), 'stdout=true', 'stderr=true'].join('&');
  const ws = new WebSocket(`wss://${e.host}:${e.port}/api/v1/namespaces/${namespace}/pods/${pod}/exec?${query}`, ['v5.channel.k8s.io'], {
    ca: e.ca, headers: { authorization: `Bearer ${e.token}` }, perMessageDeflate: false,
  });
  let stdout = '';
  let status = '';
  return new Promise((resolve, reject) => {
    ws.on('message', (data: Buffer) => {
      if (data[0] === 1) stdout += data.subarray(1).toString();
      if (data[0] === 3) {
        status = data.subarray(1).toString();
        resolve({ ms: performance.now() - started, stdout, status });
      }
    });
    ws.on('error', reject);
    ws.on('close', () => { if (!status) reject(new Error(`exec in ${pod} closed without a status`)); });
  });
}

/** `kubectl logs -f --timestamps`: calls `onLine` with each line's delay (arrival minus its timestamp) until stopped. */
export function followLog(e: Endpoint, namespace: string, pod: string, agent: https.Agent, onLine: (delayMs: number, text: string) => void): () => void {
  const req = https.request({
    host: e.host, port: e.port, agent, ca: e.ca, method: 'GET', headers: { authorization: `Bearer ${e.token}` },
    path: `/api/v1/namespaces/${namespace}/pods/${pod}/log?follow=true&timestamps=true&tailLines=0`,
  }, (res) => {
    let pending = '';
    res.on('data', (c: Buffer) => {
      pending += c.toString();
      let nl: number;
      while ((nl = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        const space = line.indexOf(' ');
        onLine(Date.now() - Date.parse(line.slice(0, space)), line.slice(space + 1));
      }
    });
    res.on('error', () => undefined);
  });
  req.on('error', () => undefined);
  req.end();
  return () => req.destroy();
}

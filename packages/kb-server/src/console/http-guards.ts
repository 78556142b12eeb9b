// The KB console's HTTP guards: the shared ones (@evident/http-guards: timeouts, per-address cap, the parser's
// refusals in the error shape, 405) plus what only the console needs: limits from the environment, and the Host
// check that keeps a DNS-rebinding page away from a local console.
import { hostname, networkInterfaces } from 'node:os';
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from '@evident/http-guards';

export * from '@evident/http-guards';

/** The limits from the environment, named as the job service names them (EVIDENT_*). */
export function httpLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): HttpLimits {
  const num = (v: string | undefined, d: number) =>
    v !== undefined && v !== '' && Number.isFinite(Number(v)) ? Number(v) : d;
  return {
    requestTimeoutMs: num(env.EVIDENT_REQUEST_TIMEOUT_MS, DEFAULT_HTTP_LIMITS.requestTimeoutMs),
    headersTimeoutMs: num(env.EVIDENT_HEADERS_TIMEOUT_MS, DEFAULT_HTTP_LIMITS.headersTimeoutMs),
    keepAliveTimeoutMs: num(env.EVIDENT_KEEP_ALIVE_TIMEOUT_MS, DEFAULT_HTTP_LIMITS.keepAliveTimeoutMs),
    maxConnectionsPerClient: num(env.EVIDENT_MAX_CONNECTIONS_PER_CLIENT, DEFAULT_HTTP_LIMITS.maxConnectionsPerClient),
  };
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '::1'];

/** A loopback interface: only this machine can reach it. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return LOOPBACK_NAMES.includes(h) || h.startsWith('127.');
}

/** The host name of a Host header, without its port (`[::1]:8080` → `::1`). */
export function hostName(header: string): string {
  const h = header.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']') > 0 ? h.indexOf(']') : undefined);
  const colon = h.indexOf(':');
  return colon < 0 ? h : h.slice(0, colon);
}

/**
 * The names a Host header may carry: loopback, the bound host, the allow-list, and, when bound to every interface,
 * this machine's addresses and host name. Anything else is a page that renamed itself (DNS rebinding).
 */
export function allowedHostNames(boundHost: string | undefined, allowList: readonly string[] = []): Set<string> {
  const names = new Set<string>(LOOPBACK_NAMES);
  for (const n of allowList) if (n.trim()) names.add(hostName(n));
  if (boundHost) {
    const b = hostName(boundHost.startsWith('[') || !boundHost.includes('::') ? boundHost : `[${boundHost}]`);
    if (b === '0.0.0.0' || b === '::') {
      names.add(hostname().toLowerCase());
      for (const list of Object.values(networkInterfaces()))
        for (const a of list ?? []) names.add(a.address.toLowerCase());
    } else names.add(b);
  }
  return names;
}

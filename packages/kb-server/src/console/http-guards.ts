// The KB console's HTTP guards: the shared ones (@evident/http-guards: timeouts, per-address cap, the parser's
// refusals in the error shape, 405) plus what only the console needs: limits from the environment, and the Host
// check that keeps a DNS-rebinding page away from a local console.
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
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

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * A loopback address (127.0.0.0/8, ::1, and their IPv4-mapped forms): only this machine can reach it. An address,
 * never a name: a name is judged by what it resolves to (`127.evil.test` may well resolve to 0.0.0.0).
 */
export function isLoopbackAddress(address: string): boolean {
  const type = isIP(address);
  return type !== 0 && LOOPBACK.check(address, type === 6 ? 'ipv6' : 'ipv4');
}

/** Resolves a name to every address it has (dns.lookup with all: true, which /etc/hosts and literals go through). */
export type HostLookup = (host: string) => Promise<readonly { address: string }[]>;

export const systemLookup: HostLookup = (host) => lookup(host, { all: true });

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

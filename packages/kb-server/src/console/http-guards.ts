// The KB console's HTTP guards: the shared ones (@evident/http-guards: timeouts, per-address cap, the parser's
// refusals in the error shape, 405) plus what only the console needs: limits from the environment, and the Host
// check that keeps a DNS-rebinding page away from a local console.
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import type { FastifyBodyParser, FastifyInstance } from 'fastify';
import { InvalidParametersError } from '@evident/contract';
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

/**
 * Levels of arrays and objects a console body may nest (the body itself is level 1). Room for `POST /query`'s
 * parameters, 200 levels deep under `params` (kb-core's MAX_PARAM_DEPTH), and for claim payloads; a deeper body is
 * refused before it is parsed: JSON.parse builds half a million levels from a 1 MiB body, and the garbage collector
 * then walks them, seconds of the console's only thread.
 */
export const MAX_BODY_DEPTH = 256;
/**
 * The console's JSON body parser for `scope`: a body nested deeper than MAX_BODY_DEPTH is refused before it is parsed
 * (400 invalid_parameters naming the limit and the path), else Fastify's own parser with its __proto__ and
 * constructor refusals. Every context that registers a JSON parser of its own wraps this one, so no route skips it.
 */
export function depthBoundedJsonParser(scope: FastifyInstance): FastifyBodyParser<string> {
  const parseJson = scope.getDefaultJsonParser('error', 'error');
  return (req, body, done) => {
    const deep = jsonTooDeep(body, MAX_BODY_DEPTH);
    if (deep === undefined) return parseJson(req, body, done);
    done(
      new InvalidParametersError(
        [{ path: deep, message: `nests arrays and objects deeper than ${MAX_BODY_DEPTH} levels (the limit)` }],
        `the body nests arrays and objects deeper than ${MAX_BODY_DEPTH} levels, the limit of this API`,
      ),
      undefined,
    );
  };
}

/** A refusal's pointer stops growing past this many characters (it then names an ancestor of the deep value). */
const MAX_POINTER_CHARS = 1000;

/**
 * The JSON pointer of the first array or object in `text` nested deeper than `limit`, or undefined. One pass over
 * the characters outside strings, no recursion; text that is not JSON is left to the parser, which refuses it.
 */
export function jsonTooDeep(text: string, limit: number = MAX_BODY_DEPTH): string | undefined {
  const isArray: boolean[] = [];
  const index: number[] = [];
  const keys: string[] = [];
  let depth = 0;
  let stringStart = -1;
  let stringEnd = -1;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 0x5c) j += 2;
        else if (d === 0x22) break;
        else j++;
      }
      if (j >= n) return undefined;
      stringStart = i;
      stringEnd = j;
      i = j;
    } else if (c === 0x5b || c === 0x7b) {
      if (depth === limit) return pointerOf(isArray, index, keys, depth);
      depth++;
      isArray[depth] = c === 0x5b;
      index[depth] = 0;
      keys[depth] = '';
    } else if (c === 0x5d || c === 0x7d) {
      if (depth > 0) depth--;
    } else if (c === 0x2c) {
      if (depth > 0 && isArray[depth]) index[depth]!++;
    } else if (c === 0x3a) {
      if (depth > 0 && !isArray[depth] && stringEnd > stringStart) keys[depth] = text.slice(stringStart, stringEnd + 1);
    }
  }
  return undefined;
}

function pointerOf(isArray: boolean[], index: number[], keys: string[], depth: number): string {
  let path = '';
  for (let level = 1; level <= depth && path.length <= MAX_POINTER_CHARS; level++) {
    let token: string;
    if (isArray[level]) token = String(index[level]);
    else {
      try {
        token = JSON.parse(keys[level]!) as string;
      } catch {
        token = keys[level]!.slice(1, -1);
      }
    }
    path += `/${token.replaceAll('~', '~0').replaceAll('/', '~1')}`;
  }
  return path;
}

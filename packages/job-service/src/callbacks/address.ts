// Callback URLs: http(s) only, and never to a private, loopback, link-local, reserved or this host's own address
// unless allowed (server-side request forgery would otherwise let a caller reach the service's own network).
//
// The rule is an allow-list: an IPv4 address must be ordinary unicast (ipaddr.js's `range()`: every IANA
// special-purpose block is refused), an IPv6 address must be unicast inside 2000::/3, the global unicast space (so
// ::/96 IPv4-compatible, ::ffff:0:0:0/96, fec0::/10 site-local and the rest of the unassigned space are refused).
// An IPv6 form that carries an IPv4 address the network may route to (mapped, NAT64, 6to4, Teredo) is judged by the
// IPv4 address it carries. The host's own interface addresses are refused whatever their range.
//
// A check is only as good as the connection that follows it: `resolveCallbackUrl` resolves the name once and
// returns the checked addresses, and delivery connects to exactly those (deliver.ts), never resolving again.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has. Injectable so that tests can play a rebinding DNS server. */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

const REFUSED = "resolves to a private, loopback, link-local, reserved or this host's own address, which is refused";
const globalUnicast = ipaddr.parseCIDR('2000::/3');

/** One spelling per address: dotted IPv4, or the full IPv6 form without a zone. */
function canonical(a: ipaddr.IPv4 | ipaddr.IPv6): string {
  return a.kind() === 'ipv4' ? a.toString() : (a as ipaddr.IPv6).toNormalizedString();
}

/** The host's own interface addresses (read on every check: interfaces come and go). */
export function hostAddresses(): Set<string> {
  const own = new Set<string>();
  let interfaces: ReturnType<typeof networkInterfaces>;
  try {
    interfaces = networkInterfaces();
  } catch {
    return own; // some sandboxes refuse the query; the range rules still apply
  }
  for (const list of Object.values(interfaces)) {
    for (const i of list ?? []) {
      if (ipaddr.isValid(i.address)) own.add(canonical(ipaddr.process(i.address)));
    }
  }
  return own;
}

const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);

/** The IPv4 addresses an IPv6 address carries and a translator or tunnel would deliver to; undefined for none. */
function embeddedIPv4(a: ipaddr.IPv6): ipaddr.IPv4[] | undefined {
  const p = a.parts;
  switch (a.range()) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
      return [v4(p[6]!, p[7]!)];
    case 'rfc6052': // NAT64: only the well-known 64:ff9b::/96 has the address at a fixed place; 64:ff9b:1::/48 is local
      return p[1] === 0xff9b && p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0 ? [v4(p[6]!, p[7]!)] : undefined;
    case '6to4': // 2002:aabb:ccdd::/48
      return [v4(p[1]!, p[2]!)];
    case 'teredo': // 2001:0:<server>:<flags>:<port>:<client, inverted>
      return [v4(p[2]!, p[3]!), v4(p[6]! ^ 0xffff, p[7]! ^ 0xffff)];
    default:
      return undefined;
  }
}

function refusedV4(a: ipaddr.IPv4, own: ReadonlySet<string>): boolean {
  return a.range() !== 'unicast' || own.has(a.toString());
}

function refusedV6(a: ipaddr.IPv6, own: ReadonlySet<string>): boolean {
  if (own.has(a.toNormalizedString())) return true;
  const carried = embeddedIPv4(a);
  if (carried) return carried.some((e) => refusedV4(e, own));
  return a.range() !== 'unicast' || !a.match(globalUnicast);
}

/**
 * True when a callback must not connect to `ip`: private, loopback, link-local, reserved, multicast, an IPv6 form
 * carrying such an IPv4 address, one of this host's own addresses (`own`), or not an IP address at all.
 */
export function isPrivateAddress(ip: string, own: ReadonlySet<string> = hostAddresses()): boolean {
  // isIP first: ipaddr.js also parses the legacy IPv4 spellings (0x7f.1, 2130706433), which DNS never answers
  // and the WHATWG URL parser has already turned into dotted quads.
  if (isIP(ip) === 0) return true;
  const a = ipaddr.parse(ip);
  return a.kind() === 'ipv4' ? refusedV4(a as ipaddr.IPv4, own) : refusedV6(a as ipaddr.IPv6, own);
}

export type CallbackTarget = { ok: true; url: URL; addresses: ResolvedAddress[] } | { ok: false; problem: string };

function parseCallbackUrl(raw: string): CallbackTarget {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, problem: 'must be an absolute http(s) URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, problem: 'must use http or https' };
  if (url.username || url.password) return { ok: false, problem: 'must not contain credentials' };
  return { ok: true, url, addresses: [] };
}

/**
 * Parses the URL, resolves its host once and checks every address it resolves to (unless `allowPrivate`). The
 * addresses returned are the ones to connect to: connecting by name instead would resolve again, and a DNS server
 * that answers differently the second time (rebinding) would get past the check.
 */
export async function resolveCallbackUrl(
  raw: string,
  allowPrivate: boolean,
  resolve: Resolver = systemResolver,
): Promise<CallbackTarget> {
  const parsed = parseCallbackUrl(raw);
  if (!parsed.ok) return parsed;
  const { url } = parsed;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  let addresses: ResolvedAddress[];
  try {
    addresses = family === 4 || family === 6 ? [{ address: host, family }] : await resolve(host);
  } catch {
    return { ok: false, problem: `host ${host} does not resolve` };
  }
  if (addresses.length === 0) return { ok: false, problem: `host ${host} does not resolve` };
  if (!allowPrivate) {
    const own = hostAddresses();
    if (addresses.some((a) => isPrivateAddress(a.address, own))) return { ok: false, problem: REFUSED };
  }
  return { ok: true, url, addresses };
}

/** Returns a problem message, or undefined when the URL may be called. */
export async function checkCallbackUrl(
  raw: string,
  allowPrivate: boolean,
  resolve: Resolver = systemResolver,
): Promise<string | undefined> {
  // Allowed private addresses need no resolution to be accepted; delivery resolves (once) when it connects.
  const target = allowPrivate ? parseCallbackUrl(raw) : await resolveCallbackUrl(raw, false, resolve);
  return target.ok ? undefined : target.problem;
}

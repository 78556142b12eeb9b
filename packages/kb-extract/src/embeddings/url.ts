// The check a base URL passes before any request is made to it. The operator names the provider's address
// (a local Ollama or a server on the LAN are legitimate), so private addresses are allowed; what is refused is
// what would misroute a request or expose the key: another scheme, credentials or a query in the URL (the SDK
// appends paths to the base, so a query would end up in the middle), and a key sent in clear text over the
// network (plain http is accepted with a key only to this machine).
import { isIP } from 'node:net';

export const MAX_BASE_URL_LENGTH = 2048;

/** The problem with `raw` as a base URL, or undefined when it is fine. */
export function baseUrlProblem(raw: unknown, sendsKey: boolean): string | undefined {
  if (typeof raw !== 'string' || raw.trim() === '') return 'must be a non-empty http(s) URL';
  if (raw.length > MAX_BASE_URL_LENGTH) return `must be at most ${MAX_BASE_URL_LENGTH} characters`;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'is not a valid URL';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    return `scheme '${u.protocol.replace(/:$/, '')}' is not allowed (http or https only)`;
  if (u.username || u.password) return 'must not carry credentials (pass api_key or the environment variable)';
  if (u.search || u.hash || raw.includes('?') || raw.includes('#')) return 'must not carry a query or fragment';
  if (u.protocol === 'http:' && sendsKey && !isLoopback(u.hostname))
    return 'plain http would send the API key in clear text; use https (http only to localhost)';
  return undefined;
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

// Outbound URLs of the structure sources.
//
// The callback policy (callbacks/address.ts) refuses private and loopback addresses because a caller chooses the
// callback URL. Here the caller chooses nothing but ids: the base URLs are the operator's configuration, trusted
// as such (an institute may well run an RCSB or AlphaFold DB mirror on its own network, and the tests run the
// sources on 127.0.0.1), so no address range is refused. What is not trusted is everything that is put under a
// base: ids from the request and URLs from the services' answers (AlphaFold DB's pdbUrl, a redirect's Location).
// Ids are checked against their formats (ids.ts), and every URL, built or answered, must stay under its
// configured base (same scheme, host and port, path below the base's) before any request is made.
import { SOURCE_LABEL, StructureUnavailableError, type StructureSourceName } from './errors.js';

/**
 * A configured URL: http(s), no credentials, query or fragment. A base (ids go below it) gets a trailing `/`; an
 * endpoint (the search service, requested as it is) keeps its path.
 */
export function checkBase(name: string, raw: string, kind: 'base' | 'endpoint' = 'base'): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${name}: "${raw}" is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${name}: must use http or https`);
  if (url.username || url.password) throw new Error(`${name}: must not contain credentials`);
  if (url.search || url.hash) throw new Error(`${name}: must not have a query or fragment`);
  if (kind === 'base' && !url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

/** True when `url` is `base` or below it. */
export function isUnder(url: URL, base: URL): boolean {
  return (
    url.protocol === base.protocol &&
    url.host === base.host &&
    !url.username &&
    !url.password &&
    (url.pathname === base.pathname.slice(0, -1) || url.pathname.startsWith(base.pathname))
  );
}

/** `base` + one path segment (already a checked id, encoded again all the same). */
export function below(base: URL, segment: string, source: StructureSourceName): URL {
  const url = new URL(encodeURIComponent(segment), base);
  mustBeUnder(url, base, source);
  return url;
}

export function mustBeUnder(url: URL, base: URL, source: StructureSourceName): void {
  if (!isUnder(url, base)) {
    throw new StructureUnavailableError(
      source,
      `refused to request ${url.origin}${url.pathname}: it is not under the configured ${SOURCE_LABEL[source]} base ${base.href}`,
      { transient: false },
    );
  }
}

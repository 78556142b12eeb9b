// Bounded HTTP for the structure sources: Node's own fetch (undici), with a deadline, the caller's abort signal,
// a byte limit enforced while the body streams in (after decoding, so a small gzip bomb is caught too), gzip
// handled both as a Content-Encoding and as a gzip'd file, and redirects followed only when they stay under the
// configured base (urls.ts).
import { gunzipSync } from 'node:zlib';
import { StructureUnavailableError, type StructureSourceName } from './errors.js';
import { mustBeUnder } from './urls.js';

export interface HttpLimits {
  /** Largest body accepted, in bytes (decoded). */
  maxBytes: number;
  /** Deadline of one request, headers and body, in milliseconds. */
  timeoutMs: number;
  /** The caller's signal (job cancellation); its abort is thrown as its own reason, never as a source failure. */
  signal?: AbortSignal | undefined;
}

export interface HttpAnswer {
  status: number;
  url: URL;
  /** The decoded body; empty for a 204 and for any non-2xx answer (its status is for the caller to judge). */
  body: Buffer;
  contentType: string;
}

const MAX_REDIRECTS = 3;
const GZIP_MAGIC = [0x1f, 0x8b];

function unavailable(source: StructureSourceName, what: string, cause?: unknown): StructureUnavailableError {
  return new StructureUnavailableError(source, what, { transient: true, cause });
}

// An answer over the limit stays over it: asking again cannot help.
function tooLarge(source: StructureSourceName, what: string, cause?: unknown): StructureUnavailableError {
  return new StructureUnavailableError(source, what, { transient: false, cause });
}

const mb = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;

/** Reads the body up to `maxBytes`, cancelling the stream as soon as it goes past. */
async function readBounded(res: Response, maxBytes: number, source: StructureSourceName, url: URL): Promise<Buffer> {
  const declared = Number(res.headers.get('content-length'));
  // Content-Length counts encoded bytes: over the limit, the decoded body is too.
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => {});
    throw tooLarge(source, `${url.pathname} is larger than the ${mb(maxBytes)} limit (${declared} bytes)`);
  }
  if (!res.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(source, `${url.pathname} is larger than the ${mb(maxBytes)} limit`);
    }
    chunks.push(value);
  }
  const body = Buffer.concat(chunks, total);
  // A gzip'd file served as it is (application/gzip, no Content-Encoding): decode it within the same limit.
  if (body.length >= 2 && body[0] === GZIP_MAGIC[0] && body[1] === GZIP_MAGIC[1]) {
    try {
      return gunzipSync(body, { maxOutputLength: maxBytes });
    } catch (e) {
      const tooBig = (e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE';
      if (tooBig)
        throw tooLarge(source, `${url.pathname} is larger than the ${mb(maxBytes)} limit once decompressed`, e);
      throw unavailable(source, `${url.pathname} is not valid gzip`, e);
    }
  }
  return body;
}

function describeFailure(e: unknown): string {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (e as Error).message;
}

/**
 * One request to a source. A 2xx answer other than 204 has its body read within the limits; any other status is
 * returned with an empty body for the caller to judge. A redirect is followed (GET only, at most 3) when its
 * target is under `base`. Failures to get an answer are `structure_unavailable`; the caller's abort is its reason.
 */
export async function request(
  source: StructureSourceName,
  url: URL,
  base: URL | undefined,
  limits: HttpLimits,
  init: { method?: 'GET' | 'POST'; json?: unknown; accept?: string } = {},
): Promise<HttpAnswer> {
  limits.signal?.throwIfAborted();
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  const signal = limits.signal ? AbortSignal.any([limits.signal, deadline]) : deadline;
  const method = init.method ?? 'GET';
  let current = url;
  try {
    for (let hop = 0; ; hop++) {
      const res = await fetch(current, {
        method,
        redirect: 'manual',
        signal,
        headers: {
          accept: init.accept ?? '*/*',
          'accept-encoding': 'gzip',
          ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
      });
      if (res.status >= 300 && res.status < 400 && res.headers.get('location')) {
        await res.body?.cancel().catch(() => {});
        if (method !== 'GET' || !base || hop >= MAX_REDIRECTS) {
          throw unavailable(source, `${current.pathname} answered a redirect (${res.status}) that is not followed`);
        }
        const next = new URL(res.headers.get('location')!, current);
        mustBeUnder(next, base, source);
        current = next;
        continue;
      }
      const contentType = res.headers.get('content-type') ?? '';
      if (res.status < 200 || res.status >= 300 || res.status === 204) {
        await res.body?.cancel().catch(() => {});
        return { status: res.status, url: current, body: Buffer.alloc(0), contentType };
      }
      return {
        status: res.status,
        url: current,
        body: await readBounded(res, limits.maxBytes, source, current),
        contentType,
      };
    }
  } catch (e) {
    if (limits.signal?.aborted) throw limits.signal.reason;
    if (e instanceof StructureUnavailableError) throw e;
    if (deadline.aborted) {
      throw unavailable(source, `${current.pathname} did not answer within ${limits.timeoutMs / 1000} s`, e);
    }
    throw unavailable(source, `unreachable at ${current.origin} (${describeFailure(e)})`, e);
  }
}

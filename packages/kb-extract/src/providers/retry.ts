// What the language-model calls and the embedding calls share about retrying a provider: how long the provider
// asked us to wait, whether a failure was a timeout, and a sleep that an abort cuts short.

/** Longest wait between attempts, whatever the provider asks for. */
export const MAX_BACKOFF_MS = 30_000;

/**
 * The wait a 429/503 asked for: `retry-after-ms` (OpenAI's), else `retry-after` in seconds or as an HTTP date
 * (RFC 9110 §10.2.3). Undefined when neither is there or parses.
 */
export function retryAfterMs(headers: Record<string, string> | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = Number.parseFloat(headers['retry-after-ms'] ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers['retry-after']?.trim();
  if (!raw) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Number.parseFloat(raw) * 1000;
  const at = Date.parse(raw);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

/** Exponential backoff from `base` (attempt 1 waits `base`), or the provider's own wait; both capped. */
export function backoffMs(base: number, attempt: number, asked: number | undefined): number {
  return Math.min(asked ?? base * 2 ** (attempt - 1), MAX_BACKOFF_MS);
}

export function isTimeout(e: unknown): boolean {
  const name = (e as { name?: string })?.name;
  const cause = (e as { cause?: { name?: string } })?.cause?.name;
  return name === 'TimeoutError' || name === 'AbortError' || cause === 'TimeoutError';
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

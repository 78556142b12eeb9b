// Completion callbacks: POST the status document, signed with the key's signing secret, retried with backoff.
import { createHmac } from 'node:crypto';
import { checkCallbackUrl } from './address.js';

export const SIGNATURE_HEADER = 'x-evident-signature';

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`: the timestamp lets receivers refuse replays. */
export function signBody(secret: string, body: string, t = Math.floor(Date.now() / 1000)): string {
  const mac = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${mac}`;
}

export interface DeliveryOptions {
  allowPrivate: boolean;
  attempts: number;
  baseDelayMs: number;
  timeoutMs: number;
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

export async function deliverCallback(url: string, secret: string, doc: object, o: DeliveryOptions): Promise<boolean> {
  const body = JSON.stringify(doc);
  const jobId = (doc as { job_id?: string }).job_id;
  for (let attempt = 1; attempt <= o.attempts; attempt++) {
    // Checked again at delivery: DNS may have changed since submission.
    const problem = await checkCallbackUrl(url, o.allowPrivate);
    if (problem) {
      o.log.warn({ job_id: jobId }, `callback refused: ${problem}`);
      return false;
    }
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: signBody(secret, body),
          'user-agent': 'evident-jobs',
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(o.timeoutMs),
      });
      await res.arrayBuffer().catch(() => undefined);
      if (res.status >= 200 && res.status < 300) {
        o.log.info({ job_id: jobId, attempt }, 'callback delivered');
        return true;
      }
      o.log.warn({ job_id: jobId, attempt, status: res.status }, 'callback answered with an error status');
    } catch (e) {
      o.log.warn({ job_id: jobId, attempt, err: (e as Error).message }, 'callback failed');
    }
    if (attempt < o.attempts) await new Promise((r) => setTimeout(r, o.baseDelayMs * 2 ** (attempt - 1)));
  }
  return false;
}

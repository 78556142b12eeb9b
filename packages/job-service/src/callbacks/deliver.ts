// Completion callbacks: POST the status document, signed with the key's signing secret, retried with backoff.
//
// Each attempt resolves the callback's host once, checks every address (address.ts), and connects to exactly those
// addresses: the request's `lookup` answers with them and never asks DNS, so a name that resolves to a public
// address for the check and to a private one a moment later (DNS rebinding) still reaches the checked address.
// The Host header and the TLS server name stay the URL's own name. node:http/https take a `lookup` per request;
// the global fetch would need an undici Agent, which Node 20 does not export (the npm undici package would be a
// second copy of the client to keep in step with Node's), so delivery uses node:http/https.
import { createHmac } from 'node:crypto';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { type ResolvedAddress, type Resolver, resolveCallbackUrl, systemResolver } from './address.js';

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
  /** How host names are resolved (once per attempt); the system resolver unless a test plays a DNS server. */
  resolve?: Resolver;
}

/** A `lookup` for one connection that answers with the checked addresses only, whatever the name. */
export function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname: string, options: LookupOptions, callback) => {
    const fit = addresses.filter(
      (a) => !options.family || options.family === a.family || options.family === `IPv${a.family}`,
    );
    const first = fit[0];
    if (!first) {
      const err: NodeJS.ErrnoException = new Error('no checked address of the family asked for');
      err.code = 'ENOTFOUND';
      callback(err, '', 0);
    } else if (options.all) {
      callback(
        null,
        fit.map((a): LookupAddress => ({ address: a.address, family: a.family })),
      );
    } else {
      callback(null, first.address, first.family);
    }
  };
}

interface Answer {
  status: number;
  /** The address the connection went to. */
  remote: string | undefined;
}

function post(
  url: URL,
  addresses: readonly ResolvedAddress[],
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
) {
  return new Promise<Answer>((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: pinnedLookup(addresses),
        // A fresh connection per delivery: a pooled socket would carry an earlier attempt's address.
        agent: false,
        signal: AbortSignal.timeout(timeoutMs),
      },
      (res: IncomingMessage) => {
        const answer = { status: res.statusCode ?? 0, remote: res.socket?.remoteAddress };
        res.resume(); // the receiver's body is not read
        res.on('end', () => resolve(answer));
        res.on('close', () => reject(new Error('the response was cut short')));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export async function deliverCallback(url: string, secret: string, doc: object, o: DeliveryOptions): Promise<boolean> {
  const body = JSON.stringify(doc);
  const jobId = (doc as { job_id?: string }).job_id;
  for (let attempt = 1; attempt <= o.attempts; attempt++) {
    // Resolved and checked again at every attempt: DNS may have changed since submission.
    const target = await resolveCallbackUrl(url, o.allowPrivate, o.resolve ?? systemResolver);
    if (!target.ok) {
      o.log.warn({ job_id: jobId, attempt }, `callback refused: ${target.problem}`);
      return false;
    }
    try {
      const headers = {
        'content-type': 'application/json',
        [SIGNATURE_HEADER]: signBody(secret, body),
        'user-agent': 'evident-jobs',
      };
      const res = await post(target.url, target.addresses, headers, body, o.timeoutMs);
      if (res.status >= 200 && res.status < 300) {
        o.log.info({ job_id: jobId, attempt, address: res.remote }, 'callback delivered');
        return true;
      }
      o.log.warn(
        { job_id: jobId, attempt, status: res.status, address: res.remote },
        'callback answered with an error status',
      );
    } catch (e) {
      o.log.warn({ job_id: jobId, attempt, err: (e as Error).message }, 'callback failed');
    }
    if (attempt < o.attempts) await new Promise((r) => setTimeout(r, o.baseDelayMs * 2 ** (attempt - 1)));
  }
  return false;
}

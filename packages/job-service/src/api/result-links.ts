// Signed results links: a URL a person can open in a browser, without the API key, for one job's results. The
// owner of the job makes one with the key (POST /v1/results/{id}/links, or GET /v1/jobs/{id}?results_link=true);
// it carries an expiry and is signed with HMAC-SHA256 under a server secret that only the store holds (made at
// first use; never sent, never logged). A link stops working when it expires, when the job's links are revoked
// (DELETE /v1/results/{id}/links: the job's link generation moves on) or when the key that owns the job is revoked.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors.js';
import type { JobRecord, KeyRecord, Store } from '../store/types.js';

/** The query parameter a link carries its token in. */
export const LINK_PARAM = 'token';

// Token: 'evl_' + base64url(version 1 byte | expiry u32 (unix seconds) | generation u32 | HMAC-SHA256 32 bytes).
// The prefix lets the logger mask a token wherever a URL is logged (log.ts), as it masks API keys.
const PREFIX = 'evl_';
const VERSION = 1;
const BYTES = 1 + 4 + 4 + 32;

export interface ResultsLink {
  url: string;
  token: string;
  expires_at: string;
}

const refused = (code: 'link_invalid' | 'link_expired' | 'link_revoked', message: string) =>
  new ApiError(code, message);
const invalid = () =>
  refused(
    'link_invalid',
    'this results link is not valid (it was changed or cut short); ask the owner of the job for a new one',
  );

export class ResultLinks {
  private secret: Promise<Buffer> | undefined;

  constructor(private readonly store: Store) {}

  private async key(): Promise<Buffer> {
    this.secret ??= this.store.resultLinkSecret().catch((e) => {
      this.secret = undefined;
      throw e;
    });
    return this.secret;
  }

  private mac(secret: Buffer, job: JobRecord, expires: number, generation: number): Buffer {
    // Every field is bound: the job, its owner, the expiry and the generation.
    return createHmac('sha256', secret)
      .update(
        `evident-results-link\u0000v${VERSION}\u0000${job.id}\u0000${job.key_id}\u0000${expires}\u0000${generation}`,
      )
      .digest();
  }

  /** A link to `origin/v1/results/{id}` (`?format=` when given) valid for `ttlSeconds`. */
  async create(job: JobRecord, origin: string, ttlSeconds: number, format?: string): Promise<ResultsLink> {
    const expires = Math.floor(Date.now() / 1000) + ttlSeconds;
    const generation = await this.store.resultLinkGeneration(job.id);
    const bytes = Buffer.alloc(BYTES);
    bytes.writeUInt8(VERSION, 0);
    bytes.writeUInt32BE(expires, 1);
    bytes.writeUInt32BE(generation, 5);
    this.mac(await this.key(), job, expires, generation).copy(bytes, 9);
    const token = PREFIX + bytes.toString('base64url');
    const query = `${format ? `format=${format}&` : ''}${LINK_PARAM}=${token}`;
    return {
      url: `${origin}/v1/results/${encodeURIComponent(job.id)}?${query}`,
      token,
      expires_at: new Date(expires * 1000).toISOString(),
    };
  }

  /** The key the link acts for; an ApiError (403) saying why when it does not hold. */
  async verify(jobId: string, token: string, now = Date.now()): Promise<KeyRecord> {
    const bytes = token.startsWith(PREFIX) && token.length < 100 ? Buffer.from(token.slice(4), 'base64url') : null;
    if (!bytes || bytes.length !== BYTES || bytes.readUInt8(0) !== VERSION) throw invalid();
    const job = await this.store.getJob(jobId);
    if (!job) throw invalid();
    const expires = bytes.readUInt32BE(1);
    const generation = bytes.readUInt32BE(5);
    // The signature first: what a forged token says (its expiry) is never answered on.
    if (!timingSafeEqual(bytes.subarray(9), this.mac(await this.key(), job, expires, generation))) throw invalid();
    if (expires * 1000 <= now) {
      throw refused(
        'link_expired',
        `this results link expired at ${new Date(expires * 1000).toISOString()}; ask the owner of the job for a new one`,
      );
    }
    const revoked = () =>
      refused('link_revoked', 'this results link has been revoked; ask the owner of the job for a new one');
    if (generation !== (await this.store.resultLinkGeneration(job.id))) throw revoked();
    const key = await this.store.findKeyById(job.key_id);
    if (!key || key.revoked_at != null) throw revoked();
    return key;
  }
}

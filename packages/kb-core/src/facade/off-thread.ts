// A base's calls on its replica thread (src/replica, src/offload/README.md): Cypher and what-if summaries asked
// with `off_thread: true`. The thread starts when first needed and is fed the base's log through its write path.
import { optionsOf } from '../call-forms.js';
import { checkRawQuery, type RawQueryOptions } from '../cypher/raw-query.js';
import { KbClosedError, KbValidationError } from '../errors.js';
import type { ConfidencePolicy } from '../model/confidence.js';
import { checkOffThreadSettings, type OffThreadSettings, Replica } from '../replica/replica.js';
import type { WhatIfSummaryInput } from '../write/what-if-graph.js';
import type { WritePath } from '../write/write-path.js';

/** whatIfSummary's time budget off the thread, by default. */
const WHAT_IF_TIMEOUT_MS = 30_000;

export class OffThreadCalls {
  private replica: Replica | undefined;
  private settings: OffThreadSettings = {};

  constructor(
    private readonly w: WritePath,
    private readonly data: { policy: ConfidencePolicy; strict: boolean },
  ) {}

  private replicaOf(): Replica {
    this.replica ??= new Replica(
      {
        position: async () => {
          await this.w.beforeRead();
          return this.w.lastSeq;
        },
        readAfter: (seq, limit) => this.w.store.readAfter(seq, limit),
      },
      this.data,
      this.settings,
    );
    return this.replica;
  }

  /** rawQuery on the replica thread, its result as a value or as JSON text made there. */
  query(cypher: unknown, params: unknown, options: RawQueryOptions | undefined, format: 'value' | 'json') {
    if (this.w.closed) return Promise.reject(new KbClosedError());
    const q = checkRawQuery(cypher, params ?? {}, options ?? {});
    return this.replicaOf().run(
      {
        kind: 'cypher',
        cypher: q.cypher,
        params: q.params,
        timeout_ms: q.timeoutMs,
        max_rows: q.maxRows,
        max_list_size: q.maxListSize,
        mode: q.mode,
        as_of: Infinity,
        format,
      },
      q.timeoutMs,
    );
  }

  /** A what-if summary on the replica thread, stopped past `timeoutMs`. */
  whatIf(input: WhatIfSummaryInput, timeoutMs: number) {
    return this.replicaOf().run({ kind: 'what_if', input }, timeoutMs);
  }

  configure(settings: OffThreadSettings): void {
    const checked = checkOffThreadSettings(settings);
    this.settings = { ...this.settings, ...checked };
    this.replica?.configure(checked);
  }

  async close(): Promise<void> {
    await this.replica?.close();
  }
}

/** whatIfSummary's options, checked: where it runs and its time budget there. */
export function whatIfOptions(options: unknown): { off_thread: boolean; timeout_ms: number } {
  const o = optionsOf<{ off_thread?: boolean; timeout_ms?: number }>(options, 'options', ['off_thread', 'timeout_ms']);
  if (o.off_thread !== undefined && typeof o.off_thread !== 'boolean')
    throw new KbValidationError('invalid_type', 'off_thread', 'must be true or false');
  const t = o.timeout_ms ?? WHAT_IF_TIMEOUT_MS;
  if (typeof t !== 'number' || !Number.isInteger(t) || t < 1)
    throw new KbValidationError('out_of_range', 'timeout_ms', 'must be a positive integer');
  return { off_thread: o.off_thread ?? false, timeout_ms: t };
}

// The topology stage's calls as a base or a view answers them: argument checks, then the functions of this
// folder over a read context. A base keeps its results beside it (store.ts); an at(t) view keeps its own in memory.
import { KbValidationError } from '../errors.js';
import { filesBeside } from '../store/side-files.js';
import type { ReadContext } from '../graph/read.js';
import { computeTopology } from './compute.js';
import { INCREMENTAL_MAX_FRACTION } from './incremental.js';
import { embeddingRow, generateEmbeddings, prepareEmbeddings, similarEntities } from './embeddings.js';
import { svdOffThread } from '../offload/svd.js';
import { KbTopologyNotComputedError } from './errors.js';
import { KbBusyError } from '../offload/errors.js';
import { checkLevel, crossDomainBridges, densityMap, listTopics, queryTopic } from './reads.js';
import { countsOf } from './log-mark.js';
import { TopologyStore } from './store.js';
import type {
  ComputeTopologyOptions,
  EmbeddingResult,
  StoredEmbedding,
  StoredTopology,
  TopologyResult,
} from './types.js';

type Progress = (stage: string, fraction: number) => void;
type Kind = 'structural' | 'weighted';

function int(v: unknown, field: string, dflt: number, min: number, max: number): number {
  if (v === undefined) return dflt;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new KbValidationError('out_of_range', field, `must be an integer from ${min} to ${max}`);
  }
  return v;
}

/** leidenalg's n_iterations: −1 for "until nothing moves", else a positive count. */
function iterations(v: unknown): number {
  if (v === undefined || v === -1) return -1;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 100_000) {
    throw new KbValidationError(
      'out_of_range',
      'n_iterations',
      'must be -1 (until no node moves) or an integer from 1 to 100000',
    );
  }
  return v;
}

function flag(v: unknown, field: string): boolean {
  if (v === undefined) return false;
  if (typeof v !== 'boolean') throw new KbValidationError('invalid_type', field, 'must be true or false');
  return v;
}

function fraction(v: unknown): number {
  if (v === undefined) return INCREMENTAL_MAX_FRACTION;
  if (typeof v !== 'number' || !(v >= 0 && v <= 1)) {
    throw new KbValidationError('out_of_range', 'incremental_max_fraction', 'must be a number from 0 to 1');
  }
  return v;
}

/** Computations that may wait behind the running one, off the thread. */
const MAX_WAITING = 2;

function progressOf(v: unknown): Progress | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'function') throw new KbValidationError('invalid_type', 'progress', 'must be a function');
  return v as Progress;
}

export class TopologyStage {
  private store: TopologyStore | undefined;
  /** The last computation queued (settled, never rejected): the next one starts after it. */
  private computing: Promise<unknown> = Promise.resolve();
  /** Computations running or waiting. */
  private queued = 0;
  /** How long the last computation took (ms): the time to retry after when one is refused. */
  private lastMs = 1000;

  constructor(
    private readonly ctx: () => ReadContext,
    private readonly describe: () => { backend: string; location: string; log_seq: number },
    private readonly persist: boolean,
    /** Resolves when no write is between its apply and its append: what a read waits for (the write path's rule). */
    private readonly settled: () => Promise<void> = async () => {},
  ) {}

  private kept(): TopologyStore {
    if (!this.store) {
      // In memory only for a base with no file (':memory:', PostgreSQL): never a name made from its location.
      const base = this.persist ? filesBeside(this.describe()) : undefined;
      this.store = new TopologyStore(base, () => this.ctx().s);
    }
    return this.store;
  }

  private topology(): StoredTopology {
    const t = this.kept().getTopology();
    if (!t) throw new KbTopologyNotComputedError('topology');
    return t;
  }

  /**
   * Computations run one at a time (a second waits for the first): each may hold several worker threads. The graph
   * and the log position are taken when a computation starts; the labels' names and predicates when it ends.
   */
  async computeTopology(options: ComputeTopologyOptions = {}): Promise<TopologyResult> {
    const resolution = options.resolution ?? 1;
    if (typeof resolution !== 'number' || !Number.isFinite(resolution) || resolution <= 0) {
      throw new KbValidationError('out_of_range', 'resolution', 'must be a number > 0');
    }
    const settings = {
      resolution,
      levels: int(options.levels, 'levels', 3, 1, 10),
      seed: int(options.seed, 'seed', 0, 0, 2 ** 31 - 1),
      min_topic_size: int(options.min_topic_size, 'min_topic_size', 1, 1, 1_000_000),
      n_iterations: iterations(options.n_iterations),
      restarts: int(options.restarts, 'restarts', 3, 1, 16),
      off_thread: flag(options.off_thread, 'off_thread'),
      full: flag(options.full, 'full'),
      incremental_max_fraction: fraction(options.incremental_max_fraction),
      progress: progressOf(options.progress),
    };
    // Off the thread (a server), a computation that would wait behind more than MAX_WAITING others is refused:
    // each holds a request open, and they would otherwise pile up for minutes.
    if (settings.off_thread && this.queued > MAX_WAITING) {
      throw new KbBusyError('topology computations', this.queued, Math.max(1, Math.ceil(this.lastMs / 1000)));
    }
    this.queued++;
    const turn = this.computing.then(async () => {
      const started = performance.now();
      // After an earlier computation a write may be between its apply and its append: wait, as reads do.
      await this.settled();
      const previous = this.kept().getTopology();
      const stored = await computeTopology(this.ctx(), settings, this.describe().log_seq, this.settled, previous);
      this.kept().setTopology(stored);
      this.lastMs = performance.now() - started;
      return stored.result;
    });
    this.computing = turn.catch(() => {});
    const done = () => {
      this.queued--;
    };
    turn.then(done, done);
    return turn;
  }

  topics(options: { level?: number } = {}) {
    const t = this.topology();
    return listTopics(t, checkLevel(t, options.level, undefined));
  }

  densityMap(options: { level?: number } = {}) {
    const t = this.topology();
    return densityMap(this.ctx(), t, checkLevel(t, options.level, 0)!);
  }

  crossDomainBridges(options: { top_k?: number; level?: number } = {}) {
    const t = this.topology();
    return crossDomainBridges(
      this.ctx(),
      t,
      checkLevel(t, options.level, 0)!,
      int(options.top_k, 'top_k', 20, 1, 10_000),
    );
  }

  queryTopic(topic_id: string, options: { limit?: number } = {}) {
    if (typeof topic_id !== 'string' || topic_id === '') {
      throw new KbValidationError('invalid_type', 'topic_id', 'must be a topic id such as "0.3"');
    }
    return queryTopic(this.ctx(), this.topology(), topic_id, int(options.limit, 'limit', 50, 1, 100_000));
  }

  async generateEmbeddings(
    kind: Kind,
    options: { dim?: number; seed?: number; off_thread?: boolean; progress?: Progress } = {},
  ): Promise<EmbeddingResult> {
    const dim = int(options.dim, 'dim', 64, 1, 1024);
    const seed = int(options.seed, 'seed', 0, 0, 2 ** 31 - 1);
    const progress = progressOf(options.progress);
    let stored: StoredEmbedding;
    const rc = this.ctx();
    // Read with the graph (the same synchronous step): what the kept file's log mark is taken at.
    const counts = countsOf(rc.s);
    if (flag(options.off_thread, 'off_thread')) {
      // The graph is read here, in one go; the SVD runs on a thread of its own meanwhile.
      const prepared = prepareEmbeddings(rc, kind, dim, this.describe().log_seq);
      const svd =
        prepared.n === 0
          ? undefined
          : await svdOffThread(prepared.csr, prepared.dim, seed, progress && ((f) => progress('embeddings', f)));
      stored = prepared.finish(svd);
    } else stored = generateEmbeddings(rc, kind, dim, seed, this.describe().log_seq, progress);
    this.kept().setEmbedding(stored, counts);
    return stored.result;
  }

  private embedding(kind: unknown) {
    const k = kind ?? 'structural';
    if (k !== 'structural' && k !== 'weighted') {
      throw new KbValidationError('invalid_value', 'kind', "must be 'structural' or 'weighted'");
    }
    const e = this.kept().getEmbedding(k);
    if (!e) throw new KbTopologyNotComputedError(k);
    return e;
  }

  entityEmbedding(id: string, options: { kind?: Kind } = {}) {
    const e = this.embedding(options.kind);
    const rc = this.ctx();
    const entity = rc.lookupEntity(id);
    const entityId = entity >= 0 ? rc.s.entityIds[entity]! : id;
    const row = embeddingRow(e, entityId);
    const dim = e.result.dim;
    return {
      entity_id: entityId,
      kind: e.result.kind,
      dim,
      vector: Array.from(e.vectors.subarray(row * dim, (row + 1) * dim)),
    };
  }

  similarEntities(id: string, options: { k?: number; kind?: Kind } = {}) {
    const e = this.embedding(options.kind);
    const rc = this.ctx();
    const entity = rc.lookupEntity(id);
    return similarEntities(rc, e, entity >= 0 ? rc.s.entityIds[entity]! : id, int(options.k, 'k', 10, 1, 10_000));
  }

  status(logSeq: number) {
    return this.kept().status(logSeq);
  }
}

// The plan cache (Neo4j's query cache): query text → the query parsed, checked, its labels resolved and
// planned, so a text asked again skips the lexer, the parser, the semantic checks and the planner. Parameters
// are values the plan reads when it runs (seeks, comparisons and their column fallbacks evaluate them per run),
// never part of the key. A failure to parse, check or plan throws before anything is stored: errors are
// reported afresh every time.
//
// When a cached plan is stale: the planner's choices (anchors, relationship anchors, seeks) come from what it
// read of the graph: label and relationship-type counts, which index keys exist, which methods the graph has,
// how it resolves labels. Each of those reads is recorded with its answer when the plan is made. A caller may
// give the graph's version (the KB's snapshot version, bumped by every write): under the same version nothing
// is read again. When the version moved (or none is given), the recorded reads are asked again and the plan is
// made afresh if a count moved by more than DIVERGENCE times (Neo4j's divergence threshold) or any other
// answer changed. Keying on the version alone would re-plan after every write, and a base being written to
// would never reuse a plan, although one more claim moves no count enough to change the planner's choice; a
// count that doubled or halved may (a label that grew past another flips the anchor). Any plan gives the same
// rows, so a plan kept within the threshold costs time at worst, never a wrong answer.
import type { Query } from './ast.js';
import type { GraphReader } from './graph.js';
import type { Op } from './plan/operators.js';
import type { Procedures } from './procedures.js';

/** A query ready to run: its AST (labels as the graph resolved them) and the plan it runs as. */
export interface PreparedQuery {
  readonly query: Query;
  readonly plan: Op;
  readonly writes: boolean;
}

/** A count that moved by more than this factor (either way) since the plan was made makes it be made again. */
export const DIVERGENCE = 2;

/** Methods whose answers the planner's choices depend on; every other member is recorded as present or not. */
const OBSERVED = new Set(['countNodes', 'estimateNodes', 'countRelationships', 'countNodesWhere', 'resolveLabel']);

/** What the planner read of the graph: each observed call (by method and arguments) and each member's presence. */
export interface GraphReads {
  calls: Map<string, { method: string; args: unknown[]; value: unknown }>;
  members: Map<string, boolean>;
}

/** The graph as the planner and the label resolution see it, every read recorded in `reads`. */
export function observing(graph: GraphReader): { graph: GraphReader; reads: GraphReads } {
  const reads: GraphReads = { calls: new Map(), members: new Map() };
  const seen = new Proxy(graph, {
    get(target, member) {
      const v: unknown = Reflect.get(target, member, target);
      if (typeof member !== 'string') return v;
      if (!reads.members.has(member)) reads.members.set(member, typeof v === 'function');
      if (typeof v !== 'function') return v;
      const f = v as (...args: unknown[]) => unknown;
      if (!OBSERVED.has(member)) return f.bind(target);
      return (...args: unknown[]) => {
        const value = f.apply(target, args);
        const key = `${member}(${JSON.stringify(args)})`;
        if (!reads.calls.has(key)) reads.calls.set(key, { method: member, args, value });
        return value;
      };
    },
  });
  return { graph: seen, reads };
}

/** Whether an answer moved enough for the plan made from it to be made again. */
function diverged(was: unknown, now: unknown): boolean {
  if (typeof was === 'number' && typeof now === 'number') {
    // One is added to both so that 0 → 1 (a label's first node) is not an infinite change.
    const [lo, hi] = was < now ? [was, now] : [now, was];
    return hi + 1 > DIVERGENCE * (lo + 1);
  }
  return was !== now;
}

/** Whether the graph still answers the reads a plan was made from within the threshold. */
function stillHolds(reads: GraphReads, graph: GraphReader): boolean {
  const g = graph as unknown as Record<string, unknown>;
  for (const [member, had] of reads.members) if ((typeof g[member] === 'function') !== had) return false;
  for (const { method, args, value } of reads.calls.values()) {
    const now = (g[method] as (...a: unknown[]) => unknown).apply(graph, args);
    if (diverged(value, now)) return false;
  }
  return true;
}

interface Entry {
  prepared: PreparedQuery;
  procedures: Procedures | undefined;
  reads: GraphReads;
  /** The graph's version the reads were last found to hold at. */
  version: unknown;
}

export interface PlanCacheOptions {
  /** Plans kept; the least recently used goes first (default 256). */
  maxEntries?: number;
  /** Longer texts are planned every time and not kept (default 10,000 characters). */
  maxTextLength?: number;
}

/**
 * Plans by query text for one graph (or graphs that answer alike: a KB's snapshot at any cutoff). A cache
 * serves one graph's queries; keep one per graph.
 */
export class PlanCache {
  readonly maxEntries: number;
  readonly maxTextLength: number;
  private readonly entries = new Map<string, Entry>();
  /** Counters, for tests and measurements. */
  readonly stats = { hits: 0, misses: 0, replans: 0 };

  constructor(options: PlanCacheOptions = {}) {
    this.maxEntries = Math.max(1, options.maxEntries ?? 256);
    this.maxTextLength = options.maxTextLength ?? 10_000;
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * The prepared query for `text`, or undefined (not kept, checked against other procedures, or the graph
   * moved past the threshold since it was planned: the entry is dropped and the caller plans afresh).
   */
  lookup(text: string, graph: GraphReader, version: unknown, procedures: Procedures | undefined) {
    const e = this.entries.get(text);
    if (!e || e.procedures !== procedures) {
      this.stats.misses++;
      return undefined;
    }
    if (version === undefined || version !== e.version) {
      if (!stillHolds(e.reads, graph)) {
        this.entries.delete(text);
        this.stats.replans++;
        return undefined;
      }
      e.version = version;
    }
    // Most recently used last.
    this.entries.delete(text);
    this.entries.set(text, e);
    this.stats.hits++;
    return e.prepared;
  }

  store(
    text: string,
    prepared: PreparedQuery,
    reads: GraphReads,
    version: unknown,
    procedures: Procedures | undefined,
  ): void {
    if (text.length > this.maxTextLength) return;
    this.entries.delete(text);
    this.entries.set(text, { prepared, procedures, reads, version });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  clear(): void {
    this.entries.clear();
  }
}

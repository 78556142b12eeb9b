// A query frame's rows, kept as numbers until the caller reads them (issue 41: depth-2 queries at a million
// claims spent most of their time making objects and strings, claim ids, content ids and a narrative, that
// callers such as a graph walk or a count never read). What can change after the query (which claims are live,
// the entities' claim counts) is read at query time into these arrays; what cannot (names, ids, predicates, a
// claim's id, a fact's content id) is read when a row is made. So a frame read later answers as it would have
// when it was made.
import type { ReachedEntity, Relationship } from '../types.js';
import { ACTIVE } from './claim-columns.js';
import type { ReadContext } from './read.js';

const fmt = (x: number) => (Math.round(x * 100) / 100).toString();

/** Scratch for DirectRows.add: a fact's distinct sources and each one's best confidence. */
const scratchSources: number[] = [];
const scratchBest: number[] = [];

// A walk's rows go to these module-level arrays first (queries run one at a time, synchronously), written by
// index so they keep their capacity from query to query; a frame keeps one exact copy of each (slice). Growing
// per-frame arrays by push reallocated each several times per query.
/** DirectRows' integers, DIRECT_FIELDS per row: fact, target, target's claim count, source count, claims' end. */
const scratchDirect: number[] = [];
const scratchConf: number[] = [];
const scratchClaims: number[] = [];
/** ReachedRows' integers, REACHED_FIELDS per entity: entity, via, distance, claim count. */
export const scratchReached: number[] = [];

const DIRECT_FIELDS = 5;
export const REACHED_FIELDS = 4;

/**
 * The focal entity's facts with live claims at query time, and the order they are shown in. Filled through
 * start/add/finish (into the scratch arrays, then copied); read after finish.
 */
export class DirectRows {
  /** DIRECT_FIELDS integers per row (see scratchDirect). */
  private ints: number[] = [];
  /** Combined confidence per row. */
  conf: number[] = [];
  /** Live claims of every row, row after row; row i's end is its claims' end field. */
  claims: number[] = [];
  private rows = 0;
  private sorted: number[] | undefined;

  get length(): number {
    return this.rows;
  }
  fact(i: number): number {
    return this.ints[i * DIRECT_FIELDS]!;
  }
  target(i: number): number {
    return this.ints[i * DIRECT_FIELDS + 1]!;
  }
  targetCount(i: number): number {
    return this.ints[i * DIRECT_FIELDS + 2]!;
  }
  sources(i: number): number {
    return this.ints[i * DIRECT_FIELDS + 3]!;
  }
  claimsStart(i: number): number {
    return i === 0 ? 0 : this.ints[i * DIRECT_FIELDS - 1]!;
  }
  claimsEnd(i: number): number {
    return this.ints[i * DIRECT_FIELDS + 4]!;
  }

  /** Empties the scratch arrays for a new frame's rows. */
  static start(): void {
    directLength = 0;
    confLength = 0;
    claimsLength = 0;
  }

  /** Keeps the rows added since start(). */
  finish(): void {
    this.ints = scratchDirect.slice(0, directLength);
    this.conf = scratchConf.slice(0, confLength);
    this.claims = scratchClaims.slice(0, claimsLength);
    this.rows = confLength;
  }

  // Deliberate likeness (add, addMany, query.ts expand): each hoists the fact and claim columns it reads into locals
  // before its loop (V8 keeps them in registers); alike in shape, each loop reads different columns.
  /** Adds fact f seen from `from` when a claim of it is live: noisy-OR over its distinct sources' best claims. */
  static add(rc: ReadContext, f: number, from: number): void {
    const s = rc.s;
    const claims = scratchClaims;
    const start = claimsLength;
    const conf = s.claimConf;
    const status = s.claimStatus;
    const live = rc.live;
    const count = s.factClaimCount[f]!;
    if (count === 1) {
      const c = s.factFirst[f]!;
      if (!(live ? status[c] === ACTIVE : rc.isLive(c))) return;
      claims[claimsLength++] = c;
      DirectRows.push(rc, f, from, conf[c]!, 1);
      return;
    }
    if (count > 32) {
      DirectRows.addMany(rc, f, from);
      return;
    }
    // Each source counted once, with its most confident claim, in the order sources first appear (the
    // product's order, as a Map in that order gives), in scratch arrays: a fact's sources are few.
    const next = s.claimNextInFact;
    const src = s.claimSource;
    const ks = scratchSources;
    const best = scratchBest;
    let n = 0;
    for (let c = s.factFirst[f]!; c >= 0; c = next[c]!) {
      if (!(live ? status[c] === ACTIVE : rc.isLive(c))) continue;
      claims[claimsLength++] = c;
      const sc = src[c]!;
      let k = 0;
      while (k < n && ks[k] !== sc) k++;
      if (k === n) {
        ks[n] = sc;
        best[n++] = conf[c]!;
      } else if (conf[c]! > best[k]!) best[k] = conf[c]!;
    }
    if (claimsLength === start) return;
    let miss = 1;
    for (let k = 0; k < n; k++) miss *= 1 - best[k]!;
    DirectRows.push(rc, f, from, 1 - miss, n);
  }

  /** Fact f with many claims: distinct sources in a Map (in first-appearance order too). */
  private static addMany(rc: ReadContext, f: number, from: number): void {
    const s = rc.s;
    const claims = scratchClaims;
    const start = claimsLength;
    const src = s.claimSource;
    const conf = s.claimConf;
    const next = s.claimNextInFact;
    const best = new Map<number, number>();
    for (let c = s.factFirst[f]!; c >= 0; c = next[c]!) {
      if (!rc.isLive(c)) continue;
      claims[claimsLength++] = c;
      const prev = best.get(src[c]!);
      if (prev === undefined || conf[c]! > prev) best.set(src[c]!, conf[c]!);
    }
    if (claimsLength === start) return;
    let miss = 1;
    for (const x of best.values()) miss *= 1 - x;
    DirectRows.push(rc, f, from, 1 - miss, best.size);
  }

  /** A row for fact f, whose live claims were just added to the scratch claims. */
  private static push(rc: ReadContext, f: number, from: number, combined: number, sources: number): void {
    const s = rc.s;
    const a = s.factS[f]!;
    const target = a === from ? s.factO[f]! : a;
    const ints = scratchDirect;
    let k = directLength;
    ints[k++] = f;
    ints[k++] = target;
    ints[k++] = rc.live ? s.entityActive[target]! : rc.entityClaimCount(target);
    ints[k++] = sources;
    ints[k++] = claimsLength;
    directLength = k;
    scratchConf[confLength++] = combined;
  }

  /**
   * The rows in the order buildFrame always showed them: confidence, then source count (both descending), then
   * target id. Sorted when first asked (the frame's relationships or narrative), from what the query kept.
   */
  order(ids: readonly string[]): number[] {
    if (this.sorted !== undefined) return this.sorted;
    const { conf, ints } = this;
    const order: number[] = [];
    for (let i = 0; i < this.rows; i++) order.push(i);
    const F = DIRECT_FIELDS;
    this.sorted = order.sort(
      (a, b) =>
        conf[b]! - conf[a]! ||
        ints[b * F + 3]! - ints[a * F + 3]! ||
        (ids[ints[a * F + 1]!]! < ids[ints[b * F + 1]!]! ? -1 : 1),
    );
    return this.sorted;
  }

  /** The rows as Relationship objects, in order, seen from entity `from`. */
  relationships(rc: ReadContext, from: number): Relationship[] {
    const s = rc.s;
    return this.order(s.entityIds).map((i) => {
      const f = this.fact(i);
      const p = s.factP[f]!;
      const t = this.target(i);
      const ids: string[] = [];
      for (let j = this.claimsStart(i); j < this.claimsEnd(i); j++) ids.push(s.claimIdOf(this.claims[j]!));
      return {
        predicate: s.predName[p]!,
        predicate_class: s.predClass[p]!,
        target: {
          id: s.entityIds[t]!,
          name: s.entityName[t]!,
          type: s.entityType[t]!,
          claim_count: this.targetCount(i),
        },
        confidence: this.conf[i]!,
        direction: s.factS[f] === from ? 'outgoing' : 'incoming',
        claim_ids: ids,
        content_id: s.contentIdOfFact(f),
        source_count: this.sources(i),
      };
    });
  }
}

let directLength = 0;
let confLength = 0;
let claimsLength = 0;

/** The entities reached by the expansion, nearest first, with their claim counts at query time. */
export class ReachedRows {
  /** REACHED_FIELDS integers per entity (see scratchReached), copied from the scratch by the walk. */
  constructor(private readonly ints: number[]) {}

  get length(): number {
    return this.ints.length / REACHED_FIELDS;
  }
  entity(i: number): number {
    return this.ints[i * REACHED_FIELDS]!;
  }

  entities(rc: ReadContext): ReachedEntity[] {
    const s = rc.s;
    const ints = this.ints;
    const out: ReachedEntity[] = [];
    for (let k = 0; k < ints.length; k += REACHED_FIELDS) {
      const v = ints[k]!;
      out.push({
        id: s.entityIds[v]!,
        name: s.entityName[v]!,
        type: s.entityType[v]!,
        claim_count: ints[k + 3]!,
        distance: ints[k + 2]!,
        via: s.entityIds[ints[k + 1]!]!,
      });
    }
    return out;
  }
}

/** The frame's narrative, written from its rows. */
export function writeNarrative(
  rc: ReadContext,
  focal: number,
  claimCount: number,
  direct: DirectRows,
  reached: ReachedRows,
  depth: number,
): string {
  const s = rc.s;
  const name = s.entityName[focal]!;
  const type = s.entityType[focal]!;
  if (direct.length === 0) return `${name} (${type}) has no active claims.`;
  const sources = new Set<number>();
  for (const c of direct.claims) sources.add(s.claimSource[c]!);
  const parts: string[] = [];
  parts.push(
    `${name} (${type}) appears in ${claimCount} active claim${claimCount === 1 ? '' : 's'} from ${sources.size} source${sources.size === 1 ? '' : 's'}.`,
  );
  const shown = direct
    .order(s.entityIds)
    .slice(0, 5)
    .map((i) => {
      const f = direct.fact(i);
      const verb = phrase(s.predName[s.factP[f]!]!);
      const n = direct.sources(i);
      const support = `${n} source${n === 1 ? '' : 's'}, confidence ${fmt(direct.conf[i]!)}`;
      const target = s.entityName[direct.target(i)]!;
      return s.factS[f] === focal ? `${name} ${verb} ${target} (${support})` : `${target} ${verb} ${name} (${support})`;
    });
  const more = direct.length - 5;
  parts.push(`${shown.join('; ')}${more > 0 ? `; and ${more} more relationship${more === 1 ? '' : 's'}` : ''}.`);
  let corroborated = 0;
  for (let i = 0; i < direct.length; i++) if (direct.sources(i) > 1) corroborated++;
  if (corroborated)
    parts.push(`${corroborated} of ${direct.length} relationships are corroborated by more than one source.`);
  else parts.push('No relationship is corroborated by a second source yet.');
  if (depth > 1 && reached.length) {
    const byType = new Map<string, number>();
    for (let i = 0; i < reached.length; i++) {
      const t = s.entityType[reached.entity(i)]!;
      byType.set(t, (byType.get(t) ?? 0) + 1);
    }
    const mix = [...byType]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([t, n]) => `${n} ${t}`)
      .join(', ');
    parts.push(`Within ${depth} hops it reaches ${reached.length} entities (${mix}).`);
  }
  return parts.join(' ');
}

/**
 * Predicate as a verb phrase: 'associated_with' -> 'is associated with', 'part_of' -> 'is part of',
 * 'interacts_with' and 'treats' stay as they are (already finite verbs).
 */
function phrase(predicate: string): string {
  const words = predicate.replace(/_/g, ' ');
  const first = words.split(' ')[0]!;
  if (/^(is|are|was|has|have|can|may)$/.test(first)) return words;
  if (/(ed|en)$/.test(first)) return `is ${words}`;
  if (/s$/.test(first)) return words;
  return / (of|for|to|in|by|with|on|from)$/.test(words) ? `is ${words}` : words;
}

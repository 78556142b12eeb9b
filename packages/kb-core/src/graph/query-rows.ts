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

/** The focal entity's facts with live claims at query time, and the order they are shown in. */
export class DirectRows {
  readonly fact: number[] = [];
  readonly conf: number[] = [];
  readonly sources: number[] = [];
  readonly target: number[] = [];
  readonly targetCount: number[] = [];
  /** Live claims of every row, row after row; row i's end at claimEnd[i]. */
  readonly claims: number[] = [];
  readonly claimEnd: number[] = [];
  /** Rows by confidence, then sources, then target id (what Relationship[] is sorted by). */
  order: number[] = [];

  get length(): number {
    return this.fact.length;
  }

  // Deliberate likeness (add, addMany, query.ts expand): each hoists the fact and claim columns it reads into locals
  // before its loop (V8 keeps them in registers); alike in shape, each loop reads different columns.
  /** Adds fact f seen from `from` when a claim of it is live: noisy-OR over its distinct sources' best claims. */
  add(rc: ReadContext, f: number, from: number): void {
    const s = rc.s;
    const claims = this.claims;
    const start = claims.length;
    const conf = s.claimConf;
    const status = s.claimStatus;
    const live = rc.live;
    if (s.factClaimCount[f] === 1) {
      const c = s.factFirst[f]!;
      if (!(live ? status[c] === ACTIVE : rc.isLive(c))) return;
      claims.push(c);
      this.push(rc, f, from, conf[c]!, 1);
      return;
    }
    if (s.factClaimCount[f]! > 32) {
      this.addMany(rc, f, from);
      return;
    }
    // Each source counted once, with its most confident claim, in the order sources first appear (the
    // product's order, as a Map in that order gives), in scratch arrays: a fact's sources are few.
    const next = s.claimNextInFact;
    const src = s.claimSource;
    const ks = scratchSources;
    const best = scratchBest;
    ks.length = 0;
    best.length = 0;
    for (let c = s.factFirst[f]!; c >= 0; c = next[c]!) {
      if (!(live ? status[c] === ACTIVE : rc.isLive(c))) continue;
      claims.push(c);
      const k = ks.indexOf(src[c]!);
      if (k < 0) {
        ks.push(src[c]!);
        best.push(conf[c]!);
      } else if (conf[c]! > best[k]!) best[k] = conf[c]!;
    }
    if (claims.length === start) return;
    let miss = 1;
    for (const x of best) miss *= 1 - x;
    this.push(rc, f, from, 1 - miss, best.length);
  }

  /** Fact f with many claims: distinct sources in a Map (in first-appearance order too). */
  private addMany(rc: ReadContext, f: number, from: number): void {
    const s = rc.s;
    const claims = this.claims;
    const start = claims.length;
    const src = s.claimSource;
    const conf = s.claimConf;
    const next = s.claimNextInFact;
    const best = new Map<number, number>();
    for (let c = s.factFirst[f]!; c >= 0; c = next[c]!) {
      if (!rc.isLive(c)) continue;
      claims.push(c);
      const prev = best.get(src[c]!);
      if (prev === undefined || conf[c]! > prev) best.set(src[c]!, conf[c]!);
    }
    if (claims.length === start) return;
    let miss = 1;
    for (const x of best.values()) miss *= 1 - x;
    this.push(rc, f, from, 1 - miss, best.size);
  }

  /** A row for fact f, whose live claims were just pushed to `claims`. */
  private push(rc: ReadContext, f: number, from: number, combined: number, sources: number): void {
    const s = rc.s;
    const target = s.factS[f] === from ? s.factO[f]! : s.factS[f]!;
    this.fact.push(f);
    this.conf.push(combined);
    this.sources.push(sources);
    this.target.push(target);
    this.targetCount.push(rc.live ? s.entityActive[target]! : rc.entityClaimCount(target));
    this.claimEnd.push(this.claims.length);
  }

  /** Orders the rows as buildFrame always has: confidence, then source count (both descending), then target id. */
  sort(ids: readonly string[]): void {
    const { conf, sources, target } = this;
    const order: number[] = [];
    for (let i = 0; i < conf.length; i++) order.push(i);
    this.order = order.sort(
      (a, b) => conf[b]! - conf[a]! || sources[b]! - sources[a]! || (ids[target[a]!]! < ids[target[b]!]! ? -1 : 1),
    );
  }

  /** The rows as Relationship objects, in order, seen from entity `from`. */
  relationships(rc: ReadContext, from: number): Relationship[] {
    const s = rc.s;
    return this.order.map((i) => {
      const f = this.fact[i]!;
      const p = s.factP[f]!;
      const t = this.target[i]!;
      const ids: string[] = [];
      for (let j = i === 0 ? 0 : this.claimEnd[i - 1]!; j < this.claimEnd[i]!; j++)
        ids.push(s.claimIdOf(this.claims[j]!));
      return {
        predicate: s.predName[p]!,
        predicate_class: s.predClass[p]!,
        target: {
          id: s.entityIds[t]!,
          name: s.entityName[t]!,
          type: s.entityType[t]!,
          claim_count: this.targetCount[i]!,
        },
        confidence: this.conf[i]!,
        direction: s.factS[f] === from ? 'outgoing' : 'incoming',
        claim_ids: ids,
        content_id: s.contentIdOfFact(f),
        source_count: this.sources[i]!,
      };
    });
  }
}

/** The entities reached by the expansion, nearest first, with their claim counts at query time. */
export class ReachedRows {
  readonly entity: number[] = [];
  readonly via: number[] = [];
  readonly distance: number[] = [];
  readonly count: number[] = [];

  get length(): number {
    return this.entity.length;
  }

  entities(rc: ReadContext): ReachedEntity[] {
    const s = rc.s;
    return this.entity.map((v, i) => ({
      id: s.entityIds[v]!,
      name: s.entityName[v]!,
      type: s.entityType[v]!,
      claim_count: this.count[i]!,
      distance: this.distance[i]!,
      via: s.entityIds[this.via[i]!]!,
    }));
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
  const shown = direct.order.slice(0, 5).map((i) => {
    const f = direct.fact[i]!;
    const verb = phrase(s.predName[s.factP[f]!]!);
    const n = direct.sources[i]!;
    const support = `${n} source${n === 1 ? '' : 's'}, confidence ${fmt(direct.conf[i]!)}`;
    const target = s.entityName[direct.target[i]!]!;
    return s.factS[f] === focal ? `${name} ${verb} ${target} (${support})` : `${target} ${verb} ${name} (${support})`;
  });
  const more = direct.length - 5;
  parts.push(`${shown.join('; ')}${more > 0 ? `; and ${more} more relationship${more === 1 ? '' : 's'}` : ''}.`);
  const corroborated = direct.sources.filter((n) => n > 1).length;
  if (corroborated)
    parts.push(`${corroborated} of ${direct.length} relationships are corroborated by more than one source.`);
  else parts.push('No relationship is corroborated by a second source yet.');
  if (depth > 1 && reached.length) {
    const byType = new Map<string, number>();
    for (const v of reached.entity) {
      const t = s.entityType[v]!;
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

// Labels of the KB's entities as Cypher sees them: an entity type as a PascalCase label, and `Entity` for all.
import type { ReadContext } from '../graph/read.js';

export const ENTITY_LABEL = 'Entity';

const pascalCache = new Map<string, string>();

/**
 * The label a user types for an entity type, Neo4j's convention: `drug` → `Drug`, `protein_complex` →
 * `ProteinComplex` (split on anything not a letter or digit, each part's first letter upper-cased, the rest as
 * stored). A type with no letter or digit keeps its stored form.
 */
export function entityLabel(type: string): string {
  let l = pascalCache.get(type);
  if (l === undefined) {
    const parts = type.split(/[^\p{L}\p{N}]+/u).filter((p) => p !== '');
    l = parts.length === 0 ? type : parts.map((p) => p[0]!.toUpperCase() + p.slice(1)).join('');
    if (pascalCache.size < 10_000) pascalCache.set(type, l);
  }
  return l;
}

/** A node's labels: the PascalCase labels of its types, and `Entity` (what `labels(n)` and results show). */
export function nodeLabels(types: readonly string[]): string[] {
  return [...new Set(types.map(entityLabel)), ENTITY_LABEL];
}

/**
 * Visible entities per label: each type an entity was stated with, under its stored form and its PascalCase
 * label (an entity counted once per label), and `Entity` for all. From entity `from` on, added to `before`'s
 * counts (those of the entities before it).
 */
export function countLabels(rc: ReadContext, from = 0, before?: ReadonlyMap<string, number>): Map<string, number> {
  const s = rc.s;
  const out = new Map<string, number>(before);
  let all = out.get(ENTITY_LABEL) ?? 0;
  const n = s.entityIds.length;
  for (let e = from; e < n; e++) {
    if (rc.entityClaimCount(e) === 0) continue;
    all++;
    const t = s.entityType[e]!;
    const others = s.entityOtherTypes.get(e);
    if (others === undefined || others.length === 0) {
      const l = entityLabel(t);
      out.set(t, (out.get(t) ?? 0) + 1);
      if (l !== t) out.set(l, (out.get(l) ?? 0) + 1);
      continue;
    }
    const labels = new Set<string>();
    for (const type of [t, ...others]) labels.add(type).add(entityLabel(type));
    for (const l of labels) out.set(l, (out.get(l) ?? 0) + 1);
  }
  out.set(ENTITY_LABEL, all);
  return out;
}

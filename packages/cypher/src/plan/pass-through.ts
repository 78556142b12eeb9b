// A WITH that only passes variables on (`WITH a, b, r`, no renaming, no aggregation) under a projection that
// reads nothing else is dropped (rewrite rule, rewrite.ts): the projection above narrows the rows anyway. Without
// it, a variable the WITH carried but nothing reads (r) counts as read, and its Expand cannot go by adjacency
// (expand-rewrite.ts): `MATCH (a {id: $id})<-[r]-(b) WITH a, b, r RETURN b.name` built every relationship, 4x the
// time of the same query without the WITH.
import { readsOnly } from './exprs.js';
import type { Op, Predicate } from './operators.js';

/** Operators that may stand between the two projections: they pass rows on, reading only what they name. */
type Between = Extract<Op, { op: 'Filter' | 'Sort' | 'Top' | 'Skip' | 'Limit' | 'Distinct' }>;

const predicateReadsOnly = (p: Predicate, names: ReadonlySet<string>) =>
  p.kind === 'expr'
    ? readsOnly(p.expr, names)
    : names.has(p.variable) && (p.kind !== 'props' || readsOnly(p.map, names));

function betweenReadsOnly(op: Between, names: ReadonlySet<string>): boolean {
  switch (op.op) {
    case 'Filter':
      return op.predicates.every((p) => predicateReadsOnly(p, names));
    case 'Sort':
      return op.order.every((o) => readsOnly(o.expr, names));
    case 'Top':
      return (
        !op.ties &&
        !op.reads &&
        op.order.every((o) => readsOnly(o.expr, names)) &&
        (op.distinct ?? []).every((c) => names.has(c))
      );
    case 'Distinct':
      return op.columns.every((c) => names.has(c));
    default:
      return true;
  }
}

const isBetween = (op: Op): op is Between =>
  op.op === 'Filter' ||
  op.op === 'Sort' ||
  op.op === 'Top' ||
  op.op === 'Skip' ||
  op.op === 'Limit' ||
  op.op === 'Distinct';

/** `op` (a Projection) without the pass-through Projection below it, or undefined where that does not apply. */
export function dropPassThrough(op: Op): Op | undefined {
  if (op.op !== 'Projection') return undefined;
  const chain: Between[] = [];
  let below = op.input;
  while (isBetween(below)) {
    chain.push(below);
    below = below.input;
  }
  if (below.op !== 'Projection' || below.keep) return undefined;
  if (!below.items.every((it) => it.expr.kind === 'var' && it.expr.name === it.name)) return undefined;
  const names: ReadonlySet<string> = new Set(below.items.map((it) => it.name));
  if (!op.items.every((it) => readsOnly(it.expr, names))) return undefined;
  // What runs between the two reads the rows the dropped projection made. Above a projection that keeps its
  // input's variables (for ORDER BY), the rows then carry more variables than before, which nothing above reads
  // (the planner narrows them at the end).
  if (!chain.every((c) => betweenReadsOnly(c, names))) return undefined;
  let input: Op = below.input;
  for (let i = chain.length - 1; i >= 0; i--) input = { ...chain[i]!, input } as Op;
  return { ...op, input };
}

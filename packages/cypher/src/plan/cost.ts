// The cost of starting a pattern part at one of its nodes: the rows of every operator the chain would run,
// from the anchor's own rows out along the relationships on one side, then on the other (the cheaper order). Each hop multiplies
// the rows by the average degree of its types (per-type relationship counts over the node count, both ways
// doubled; a variable-length hop by the degree to the power of its hops, up to 3), and the far node's labels
// keep their share of the nodes (per-label counts) and its property map a tenth. So a pattern starts at its
// most selective end: a rare label or relationship type near the anchor counts, not only the anchor's label.
import type { Expr, NodePattern, PatternPart, RelPattern } from '../ast.js';
import type { Direction } from '../graph.js';

/** Rows assumed for a label the graph cannot count, and a LIMIT that is not a literal. */
export const DEFAULT_NODES = 1000;
/** Shares of rows an equality and a range comparison keep. */
export const EQUALITY = 0.1;
export const RANGE = 0.3;

export function selectivity(e: Expr): number {
  if (e.kind === 'compare') return e.ops[0] === '=' ? EQUALITY : RANGE;
  return RANGE;
}

export const limitEstimate = (e: Expr): number =>
  e.kind === 'literal' && typeof e.value === 'bigint' ? Number(e.value) : DEFAULT_NODES;

export interface Counts {
  /** Nodes carrying `label` (every node when absent). */
  nodes(label?: string): number;
  /** Average relationships of `types` per node in `direction`. */
  degree(types: string[], direction: Direction): number;
}

/** Rows of the whole chain when it starts at node `i` with `start` rows. */
export function chainCost(part: PatternPart, i: number, start: number, c: Counts): number {
  // The anchor's own property map filters its rows before any hop.
  const first = part.nodes[i]!.properties ? start * EQUALITY : start;
  return start + spread(part, i, i, first, c);
}

/**
 * Rows of the whole chain when it starts at relationship `i` (RelationshipScan) with `start` rows (its type's
 * relationships, both ways doubled): the ends' labels and property maps keep their share, then the hops out.
 */
export function relChainCost(part: PatternPart, i: number, start: number, c: Counts): number {
  const k = keeper(c);
  return start + spread(part, i + 1, i, start * k(part.nodes[i]!) * k(part.nodes[i + 1]!), c);
}

function keeper(c: Counts): (n: NodePattern) => number {
  const all = Math.max(1, c.nodes());
  return (n) => {
    let s = 1;
    for (const l of n.labels) s *= Math.min(1, c.nodes(l) / all);
    return n.properties ? s * EQUALITY : s;
  };
}

/** The rows of the hops out to the right from node `right` and to the left from node `left`, `first` rows there,
 * in the cheaper of the two orders (the second side's hops start from the first side's rows). */
function spread(part: PatternPart, right: number, left: number, first: number, c: Counts): number {
  return Math.min(sides(part, right, left, first, c, false), sides(part, right, left, first, c, true));
}

/** Whether the hops to the left of the anchor should go first: they make fewer rows in all. */
export function leftFirst(part: PatternPart, right: number, left: number, first: number, c: Counts): boolean {
  return sides(part, right, left, first, c, true) < sides(part, right, left, first, c, false);
}

function sides(part: PatternPart, right: number, left: number, first: number, c: Counts, leftSideFirst: boolean) {
  const keep = keeper(c);
  const hop = (r: RelPattern, direction: Direction) => {
    const d = c.degree(r.types, direction);
    return r.range === null ? d : d ** Math.min(r.range.max ?? 3, 3);
  };
  let cost = 0;
  let rows = first;
  const goRight = () => {
    for (let j = right; j < part.rels.length; j++) {
      rows *= hop(part.rels[j]!, part.rels[j]!.direction);
      cost += rows;
      rows *= keep(part.nodes[j + 1]!);
    }
  };
  const goLeft = () => {
    for (let j = left - 1; j >= 0; j--) {
      const d = part.rels[j]!.direction;
      rows *= hop(part.rels[j]!, d === 'out' ? 'in' : d === 'in' ? 'out' : 'both');
      cost += rows;
      rows *= keep(part.nodes[j]!);
    }
  };
  if (leftSideFirst) {
    goLeft();
    goRight();
  } else {
    goRight();
    goLeft();
  }
  return cost;
}

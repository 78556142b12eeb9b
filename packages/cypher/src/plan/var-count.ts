// Counts over a variable-length expansion with row-wise operators above it (`MATCH (a)-[*1..3]->(b) WHERE
// b.x > 8 RETURN count(*)`, a pattern predicate on b, an OPTIONAL MATCH from b read by count(o)): the paths'
// rows differ only in their end node when the relationship list is unread, so the operators above run once per
// distinct end and their rows are weighed by the number of paths reaching it (var-paths.ts EndCounts).
import type { Op } from './operators.js';
import { isHopCount } from './optional-hop.js';
import { isCountOf, readsOnlyItems } from './rewrite.js';

// Operators whose rows depend on their input row alone (each input row → rows extending it).
const ROW_WISE = new Set<Op['op']>(['Filter', 'ExpandExists', 'SemiApply', 'Expand', 'OptionalExpand', 'Optional']);

/** Aggregate of counts only, over row-wise operators over a VarLengthExpand over slots → ExpandCount with ends. */
export function endsCount(op: Op, pass: (x: Op) => Op): Op | undefined {
  if (op.op !== 'Aggregate' || op.keys.length > 0 || !readsOnlyItems(op)) return undefined;
  const chain: Op[] = [];
  let e = op.input;
  while (ROW_WISE.has(e.op) && 'input' in e) {
    chain.push(e);
    e = e.input;
  }
  if (e.op !== 'VarLengthExpand' || !e.slots || (chain.length === 0 && !op.hop)) return undefined;
  const names: string[] = [];
  const hopNames: string[] = [];
  for (const it of op.items) {
    if (isHopCount(it.expr, op.hop)) hopNames.push(it.name);
    else if (isCountOf(it.expr, [e.from, e.to])) names.push(it.name);
    else return undefined;
  }
  let inner: Op = { op: 'Argument', est: 1 };
  for (const c of chain.reverse()) inner = { ...c, input: inner } as Op;
  const ends = { inner: pass(inner), hopNames, ...(op.hop ? { hop: op.hop } : {}) };
  return { op: 'ExpandCount', input: e.input, names, expand: e, ends, est: 1 };
}

// Expansions of one MATCH kept apart by relationship uniqueness (`(a)-[*1..2]->(b)-[:T]->(c)`: T's relationship
// must not be on the path) and read by nothing else: they walk the relationship slots of one space, the columns
// of all their types, so uniqueness is a test on slots and no relationship object or list is built
// (var-paths.ts). Only groups with a variable-length expansion: a fixed hop of the group becomes a slot walk of
// length 1..1, a RelationshipScan reads the space's columns (slot-scan.ts). Any member the slot walk cannot
// take (a bound end or list, a property map, a relationship read) leaves the whole group as it was.
import { inputsOf, type Op } from './operators.js';

/** How a group's member walks: the space's types, and whether a later member excludes its relationships. */
export interface SlotMember {
  space: string[];
  bindRels: boolean;
}

type Expansion = Extract<Op, { op: 'Expand' | 'VarLengthExpand' }>;
type ScanOp = Extract<Op, { op: 'RelationshipScan' }>;

/** The relationship variables whose expansions walk a shared slot space, with how each walks. */
export function slotGroups(plan: Op): Map<string, SlotMember> {
  const binders = new Map<string, { op: Op; placed: boolean }[]>();
  const parent = new Map<string, string>();
  const root = (v: string): string => {
    const p = parent.get(v) ?? v;
    if (p === v) return v;
    const r = root(p);
    parent.set(v, r);
    return r;
  };
  const kept = new Set<string>();
  const visit = (op: Op, placed: boolean) => {
    if (op.op === 'Expand' || op.op === 'VarLengthExpand' || op.op === 'RelationshipScan') {
      const list = binders.get(op.rel) ?? [];
      list.push({ op, placed });
      binders.set(op.rel, list);
      for (const d of op.distinctFrom) {
        kept.add(d);
        parent.set(root(d), root(op.rel));
      }
    }
    // Where the rewrite reaches (inputs, ExpandCount's expansion) a member can change; elsewhere it stays.
    const inputs = new Set(inputsOf(op));
    for (const x of inputs) visit(x, placed);
    if (op.op === 'ExpandCount') visit(op.expand, placed);
    for (const [k, v] of Object.entries(op)) {
      if (isOp(v) && !inputs.has(v) && !(op.op === 'ExpandCount' && k === 'expand')) visit(v, false);
      if (k === 'ends' && v && isOp((v as { inner?: unknown }).inner)) visit((v as { inner: Op }).inner, false);
    }
  };
  visit(plan, true);
  const reads = namesRead(plan, new Set());
  const groups = new Map<string, string[]>();
  for (const v of binders.keys()) {
    const g = groups.get(root(v)) ?? [];
    g.push(v);
    groups.set(root(v), g);
  }
  const out = new Map<string, SlotMember>();
  for (const names of groups.values()) {
    if (names.length < 2) continue;
    const members = names.flatMap((v) => binders.get(v)!);
    const ok = members.every(({ op, placed }) => placed && walkable(op) && !reads.has((op as Expansion | ScanOp).rel));
    if (!ok || !members.some(({ op }) => op.op === 'VarLengthExpand')) continue;
    const typed = members.map(({ op }) => (op as Expansion | ScanOp).types);
    const space = typed.some((t) => t.length === 0) ? [] : [...new Set(typed.flat())];
    for (const v of names) out.set(v, { space, bindRels: kept.has(v) });
  }
  return out;
}

// Operators carry an estimate; expressions (some with an `op` of their own, `+`) do not.
const isOp = (v: unknown): v is Op =>
  v !== null && typeof v === 'object' && typeof (v as Op).op === 'string' && typeof (v as Op).est === 'number';

function walkable(op: Op): boolean {
  if (op.op === 'Expand') return !op.into && !op.relBound && !op.adjacency;
  if (op.op === 'VarLengthExpand') return !op.into && !op.relBound && !op.relProps && !op.slots;
  return op.op === 'RelationshipScan';
}

/** A member of a slot group as the slot walk it becomes (a fixed hop: length 1..1; a scan: over slots). */
export function asSlotWalk(e: Expansion | ScanOp, m: SlotMember): Op {
  const walk = { ...e, slots: true, space: m.space, bindRels: m.bindRels };
  if (walk.op === 'RelationshipScan') return walk;
  if (walk.op === 'VarLengthExpand') return walk;
  const { adjacency: _, ...hop } = walk;
  return { ...hop, op: 'VarLengthExpand', min: 1, max: 1, reversed: false, relProps: null };
}

/**
 * Every string of the plan but the relationship variables expansions bind and the ones they keep apart from:
 * a relationship variable among them is read (an expression, a path, a projection, a result). Conservative: a
 * property key or literal spelled like it counts as a read.
 */
function namesRead(op: unknown, out: Set<string>): Set<string> {
  if (typeof op === 'string') out.add(op);
  else if (Array.isArray(op)) for (const x of op) namesRead(x, out);
  else if (op !== null && typeof op === 'object') {
    const kind = (op as { op?: unknown }).op;
    const expansion = kind === 'Expand' || kind === 'VarLengthExpand' || kind === 'RelationshipScan';
    for (const [k, v] of Object.entries(op))
      if (!(expansion && (k === 'rel' || k === 'distinctFrom'))) namesRead(v, out);
  }
  return out;
}

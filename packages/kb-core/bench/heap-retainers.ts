// Reads a V8 heap snapshot (bench/memory-probe.ts with KB_MEMORY_SNAPSHOT=1) and prints what holds the heap: self
// size by constructor (as DevTools' summary), and for the largest groups the holders that point at them (the
// referring object's constructor and the edge's name), so that "2.1 M strings" becomes "held by a Map in X".
//   node --import tsx bench/heap-retainers.ts <file.heapsnapshot> [groups=15] [holders=4]
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

const [file, groupsArg, holdersArg] = process.argv.slice(2);
if (!file) throw new Error('usage: heap-retainers.ts <file.heapsnapshot> [groups] [holders]');
const s = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
const nf = s.snapshot.meta.node_fields;
const ef = s.snapshot.meta.edge_fields;
const N = nf.length;
const E = ef.length;
const [fType, fName, fSize, fEdges] = ['type', 'name', 'self_size', 'edge_count'].map((f) => nf.indexOf(f));
const [eType, eName, eTo] = ['type', 'name_or_index', 'to_node'].map((f) => ef.indexOf(f));
const nodeTypes = s.snapshot.meta.node_types[0];
const edgeTypes = s.snapshot.meta.edge_types[0];
const count = s.nodes.length / N;

/** A node's group: its type, and for objects its constructor's name (strings, arrays and code by type alone). */
function group(i: number): string {
  const t = nodeTypes[s.nodes[i * N + fType!]!]!;
  if (t === 'object' || t === 'native' || t === 'closure') return `${t} ${s.strings[s.nodes[i * N + fName!]!]}`;
  return t;
}

const groupOf = new Array<string>(count);
const bytes = new Map<string, { bytes: number; count: number }>();
for (let i = 0; i < count; i++) {
  const g = group(i);
  groupOf[i] = g;
  const e = bytes.get(g) ?? { bytes: 0, count: 0 };
  e.bytes += s.nodes[i * N + fSize!]!;
  e.count++;
  bytes.set(g, e);
}
const top = [...bytes].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, Number(groupsArg ?? 15));
const wanted = new Set(top.map(([g]) => g));

// Holders: each node's first strong referrer (the edge's name: property names; element indexes are one name,
// "[]"), followed up DEPTH levels, so that a string held by an Array shows which object holds that Array.
const DEPTH = Number(process.env.HEAP_DEPTH ?? 3);
const holderOf = new Int32Array(count).fill(-1);
const edgeNameOf = new Array<string>(count);
let edge = 0;
for (let i = 0; i < count; i++) {
  const edges = s.nodes[i * N + fEdges!]!;
  for (let k = 0; k < edges; k++, edge++) {
    const to = s.edges[edge * E + eTo!]! / N;
    if (holderOf[to] !== -1) continue;
    const type = edgeTypes[s.edges[edge * E + eType!]!]!;
    if (type === 'weak' || type === 'shortcut') continue;
    holderOf[to] = i;
    edgeNameOf[to] = type === 'element' || type === 'hidden' ? '[]' : String(s.strings[s.edges[edge * E + eName!]!]);
  }
}
const holders = new Map<string, Map<string, number>>();
for (let i = 0; i < count; i++) {
  const g = groupOf[i]!;
  if (!wanted.has(g)) continue;
  const chain: string[] = [];
  for (let at = i, d = 0; d < DEPTH && holderOf[at]! >= 0; d++) {
    chain.push(`${groupOf[holderOf[at]!]}.${edgeNameOf[at]}`);
    at = holderOf[at]!;
  }
  const key = chain.join(' < ');
  const m = holders.get(g) ?? new Map<string, number>();
  m.set(key, (m.get(key) ?? 0) + s.nodes[i * N + fSize!]!);
  holders.set(g, m);
}
const mb = (x: number) => Math.round((x / 1024 / 1024) * 10) / 10;
const out = top.map(([g, v]) => ({
  group: g,
  mb: mb(v.bytes),
  count: v.count,
  held_by: [...(holders.get(g) ?? [])]
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(holdersArg ?? 4))
    .map(([h, b]) => `${h} ${mb(b)} MB`),
}));
const total = [...bytes.values()].reduce((a, b) => a + b.bytes, 0);
console.log(JSON.stringify({ file, total_mb: mb(total), nodes: count, top: out }, null, 1));

// A RelationshipScan that is a member of a slot group (slot-groups.ts: `(b)-[r:T]->(c)` started at a rare
// type, then `(a)-[*1..2]->(b)` kept apart from r): the relationships of its types are read from the columns of
// the group's space, each bound as its relationship slot for the later walks to exclude, with no relationship
// object built. Undefined when the graph gives no columns or slots (the scan over relationships runs instead).
import type { EvalContext, Row } from '../eval.js';
import type { GraphNode } from '../values.js';
import { setOwn, type Value } from '../values.js';
import type { Op } from './operators.js';
import { excludedSlots, RelSlots, typeMask } from './var-paths.js';

type ScanOp = Extract<Op, { op: 'RelationshipScan' }>;

export function slotScanRows(ctx: EvalContext, op: ScanOp, row: Row): Iterable<Row> | undefined {
  const g = ctx.graph;
  if (!g.scanRelationshipColumns || !g.nodeAt || !g.slotOf) return undefined;
  const space = op.space ?? op.types;
  const cols = g.scanRelationshipColumns(space, []);
  const member = cols && typeMask(cols, op.types, space);
  const excluded = excludedSlots(row, op.distinctFrom);
  if (!cols || member === null || !excluded) return undefined;
  const nodeAt = g.nodeAt.bind(g);
  const fromLabels = op.labels?.from ?? [];
  const toLabels = op.labels?.to ?? [];
  const has = (n: GraphNode, labels: string[]) => labels.every((l) => n.labels.includes(l));
  return (function* () {
    const { start, end, size } = cols;
    for (let i = 0; i < size; i++) {
      ctx.budget.tick();
      if ((member && member[i] !== 1) || excluded.includes(i)) continue;
      const a = start[i]!;
      const b = end[i]!;
      const bind = (x: number, y: number): Row | undefined => {
        const nx = nodeAt(x);
        const ny = nodeAt(y);
        if (!has(nx, fromLabels) || !has(ny, toLabels)) return undefined;
        const out = { ...row };
        setOwn(out, op.from, nx);
        setOwn(out, op.to, ny);
        if (op.bindRels) setOwn(out, op.rel, new RelSlots([i]) as unknown as Value);
        return out;
      };
      if (op.direction !== 'in') {
        const r = bind(a, b);
        if (r) yield r;
      }
      if (op.direction === 'in' || (op.direction === 'both' && a !== b)) {
        const r = bind(b, a);
        if (r) yield r;
      }
    }
  })();
}

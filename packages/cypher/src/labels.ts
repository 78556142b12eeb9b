// Labels as a user types them, resolved once per query by the graph (GraphReader.resolveLabel): a graph whose
// nodes carry `Drug` may accept `:drug` too. Every label in the query (patterns, `n:L` tests, SET and REMOVE)
// is rewritten in place before planning, so scans, label tests and EXPLAIN all see the label the nodes carry
// and no label test pays for the mapping.
import { children } from './aggregate.js';
import type { Clause, Expr, PatternPart, SingleQuery } from './ast.js';

type Resolve = (label: string) => string;

export function resolveQueryLabels(parts: readonly SingleQuery[], resolve: Resolve): void {
  const r = (labels: string[]): void => {
    for (let i = 0; i < labels.length; i++) labels[i] = resolve(labels[i]!);
  };
  const expr = (e: Expr | null | undefined): void => {
    if (!e) return;
    switch (e.kind) {
      case 'hasLabels':
        r(e.labels);
        break;
      case 'patternComp':
      case 'patternExpr':
        pattern(e.pattern);
        break;
      case 'existsSubquery':
        for (const p of e.pattern ?? []) pattern(p);
        if (e.query) query(e.query);
        break;
    }
    for (const c of children(e)) expr(c);
  };
  const pattern = (p: PatternPart): void => {
    for (const n of p.nodes) {
      r(n.labels);
      expr(n.properties);
    }
    for (const rel of p.rels) expr(rel.properties);
  };
  const clause = (c: Clause): void => {
    switch (c.kind) {
      // Deliberate likeness: one case per clause kind; each visits the parts that clause has.
      case 'match':
        for (const p of c.pattern) pattern(p);
        expr(c.where);
        break;
      case 'create':
        for (const p of c.pattern) pattern(p);
        break;
      case 'merge':
        pattern(c.pattern);
        for (const s of [...c.onCreate, ...c.onMatch]) setItem(s);
        break;
      case 'set':
        for (const s of c.items) setItem(s);
        break;
      case 'remove':
        for (const s of c.items) {
          if (s.kind === 'labels') r(s.labels);
          else expr(s.target);
        }
        break;
      case 'unwind':
        expr(c.expr);
        break;
      case 'delete':
        for (const x of c.exprs) expr(x);
        break;
      case 'call':
        for (const x of c.args ?? []) expr(x);
        expr(c.where);
        break;
      case 'with':
      case 'return':
        for (const item of c.items) expr(item.expr);
        for (const o of c.order) expr(o.expr);
        if (c.kind === 'with') expr(c.where);
        break;
    }
  };
  const setItem = (s: Extract<Clause, { kind: 'set' }>['items'][number]): void => {
    if (s.kind === 'labels') r(s.labels);
    else if (s.kind === 'property') {
      expr(s.target);
      expr(s.value);
    } else expr(s.value);
  };
  const query = (q: SingleQuery): void => {
    for (const c of q.clauses) clause(c);
  };
  for (const q of parts) query(q);
}

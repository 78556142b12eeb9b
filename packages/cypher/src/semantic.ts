// Compile-time checks: what openCypher rejects before the graph is touched. Variables are tracked with what
// they are known to hold (node, relationship, path, a non-map value, or anything), clause by clause.
import { children, findAggregates } from './aggregate.js';
import type { Clause, Expr, PatternPart, Projection, Query, SetItem, SingleQuery } from './ast.js';
import { CypherTypeError } from './errors.js';
import { lookupFunction } from './functions.js';
import { fitsType, type Procedures, yieldItems } from './procedures.js';
import { CypherError } from './errors.js';
import {
  canon,
  checkAmbiguous,
  checkCallArguments,
  exprType,
  fail,
  hasVariables,
  isAgg,
  nonBooleanLiteral,
  type Scope,
  substitute,
  type VarType,
} from './semantic/expr.js';

let procedures: Procedures = new Map();

/** A checked query with its variables resolved: the scope in force after each clause of each part. */
export interface BoundQuery {
  query: Query;
  parts: { query: SingleQuery; scopes: ReadonlyMap<string, VarType>[] }[];
}

export type { VarType };

export function check(q: Query, procs: Procedures = new Map()): BoundQuery {
  procedures = procs;
  const bound: BoundQuery = { query: q, parts: [] };
  if (q.unionAll.length > 0 && new Set(q.unionAll).size > 1) {
    fail('InvalidClauseComposition', 'UNION and UNION ALL cannot be mixed');
  }
  let columns: string[] | undefined;
  for (const part of q.parts) {
    const scopes: Scope[] = [];
    const cols = checkSingle(part, q.parts.length > 1, scopes);
    bound.parts.push({ query: part, scopes });
    if (columns && (cols.length !== columns.length || cols.some((c, i) => c !== columns![i]))) {
      fail('DifferentColumnsInUnion', 'all parts of a UNION must return the same columns');
    }
    columns = cols;
  }
  return bound;
}

function checkSingle(q: SingleQuery, inUnion: boolean, scopes: Scope[]): string[] {
  let scope: Scope = new Map();
  const last = q.clauses[q.clauses.length - 1]!;
  if (inUnion && last.kind !== 'return') fail('InvalidClauseComposition', 'each part of a UNION must end in RETURN');
  const updating = ['create', 'merge', 'set', 'remove', 'delete'];
  if (last.kind !== 'return' && !updating.includes(last.kind) && last.kind !== 'call') {
    fail('InvalidClauseComposition', `a query cannot end with ${last.kind.toUpperCase()}`);
  }
  const standalone = q.clauses.length === 1 && last.kind === 'call';
  q.clauses.forEach((c, i) => {
    if (c.kind === 'return' && i !== q.clauses.length - 1) fail('InvalidClauseComposition', 'RETURN must come last');
    scope = c.kind === 'call' ? checkCall(c, scope, standalone) : checkClause(c, scope);
    scopes.push(scope);
  });
  if (last.kind === 'return') return projectionColumns(last, scope);
  if (standalone && last.kind === 'call') {
    const proc = procedures.get(last.name);
    return proc ? yieldItems(last.yields, proc).map((y) => y.alias) : [];
  }
  return [];
}

function projectionColumns(p: Projection, scope: Scope): string[] {
  return [...(p.star ? [...scope.keys()] : []), ...p.items.map((i) => i.alias ?? i.text)];
}

function checkClause(c: Clause, scope: Scope): Scope {
  switch (c.kind) {
    case 'match': {
      const next = checkPattern(c.pattern, scope, 'match');
      if (c.where) checkPredicate(c.where, next);
      return next;
    }
    case 'unwind': {
      checkExpr(c.expr, scope, false);
      if (scope.has(c.alias)) fail('VariableAlreadyBound', `${c.alias} is already bound`);
      return new Map([...scope, [c.alias, 'any']]);
    }
    case 'create':
      return checkPattern(c.pattern, scope, 'create');
    case 'merge': {
      const next = checkPattern([c.pattern], scope, 'merge');
      checkSet(c.onCreate, next);
      checkSet(c.onMatch, next);
      return next;
    }
    case 'set':
      checkSet(c.items, scope);
      return scope;
    case 'remove':
      for (const item of c.items) {
        if (item.kind === 'labels') requireVar(item.variable, scope);
        else checkExpr(item.target, scope, false);
      }
      return scope;
    case 'delete':
      for (const e of c.exprs) {
        if (e.kind === 'hasLabels')
          fail('InvalidDelete', 'DELETE removes nodes and relationships; use REMOVE for labels');
        if (e.kind === 'literal' && e.value !== null)
          fail('InvalidArgumentType', 'DELETE takes nodes, relationships or paths');
        checkExpr(e, scope, false);
      }
      return scope;
    case 'call':
      return scope;
    case 'with':
    case 'return':
      return checkProjection(c, scope, c.kind === 'with', c.kind === 'with' ? c.where : null);
  }
}

function checkCall(c: Extract<Clause, { kind: 'call' }>, scope: Scope, standalone: boolean): Scope {
  const proc = procedures.get(c.name);
  if (!proc) throw new CypherError('ProcedureError', 'ProcedureNotFound', `there is no procedure ${c.name}`, 'compile');
  if (c.args === null) {
    if (!standalone)
      fail('InvalidArgumentPassingMode', 'only a standalone CALL may take its arguments from parameters');
  } else {
    if (c.args.length !== proc.inputs.length) {
      fail('InvalidNumberOfArguments', `${c.name} takes ${proc.inputs.length} arguments, not ${c.args.length}`);
    }
    c.args.forEach((a, i) => {
      checkExpr(a, scope, false);
      if (a.kind === 'literal' && !fitsType(proc.inputs[i]!.type, a.value)) {
        fail('InvalidArgumentType', `argument ${proc.inputs[i]!.name} must be ${proc.inputs[i]!.type}`);
      }
    });
  }
  if (!standalone && c.yields?.[0]?.name === '*')
    fail('UnexpectedSyntax', 'YIELD * is only allowed in a standalone CALL');
  if (!standalone && c.yields === null && proc.outputs.length > 0) {
    fail('UndefinedVariable', `CALL ${c.name} inside a query needs YIELD`);
  }
  const next = new Map(scope);
  for (const y of c.yields ? yieldItems(c.yields, proc) : []) {
    if (!proc.outputs.some((o) => o.name === y.name)) fail('UndefinedVariable', `${c.name} yields no ${y.name}`);
    if (next.has(y.alias)) fail('VariableAlreadyBound', `${y.alias} is already bound`);
    next.set(y.alias, 'any');
  }
  if (c.where) checkPredicate(c.where, next);
  return next;
}

function requireVar(name: string, scope: Scope): void {
  if (!scope.has(name)) fail('UndefinedVariable', `variable ${name} is not defined`);
}

function checkSet(items: SetItem[], scope: Scope): void {
  for (const item of items) {
    if (item.kind === 'property') checkExpr(item.target, scope, false);
    else requireVar(item.variable, scope);
    if (item.kind !== 'labels') checkExpr(item.value, scope, false);
  }
}

function checkPattern(parts: PatternPart[], scope: Scope, mode: 'match' | 'create' | 'merge' | 'expr'): Scope {
  const next = new Map(scope);
  const relsHere = new Set<string>();
  const define = (v: string, t: VarType, listOk = false) => {
    const had = next.get(v);
    if (listOk && had === 'scalar') return;
    if (had !== undefined && had !== 'any' && had !== t) fail('VariableTypeConflict', `${v} is a ${had}, not a ${t}`);
    next.set(v, had === undefined || had === 'any' ? t : had);
  };
  for (const part of parts) {
    if (part.variable !== null && next.has(part.variable)) {
      fail('VariableAlreadyBound', `${part.variable} is already bound`);
    }
    part.nodes.forEach((n) => {
      if (n.properties) {
        if (n.properties.kind === 'param' && mode !== 'create') {
          fail('InvalidParameterUse', 'a parameter cannot be used as a node predicate here');
        }
        checkExpr(n.properties, next, false);
      }
      if (n.variable === null) return;
      const bound = scope.has(n.variable);
      const decorated = n.labels.length > 0 || n.properties !== null;
      const creating = mode === 'create' || mode === 'merge';
      if (creating && (bound || next.has(n.variable)) && (decorated || (bound && part.nodes.length === 1))) {
        fail('VariableAlreadyBound', `${n.variable} is already bound`);
      }
      define(n.variable, 'node');
    });
    for (const r of part.rels) {
      if (r.properties) {
        if (r.properties.kind === 'param' && mode !== 'create') {
          fail('InvalidParameterUse', 'a parameter cannot be used as a relationship predicate here');
        }
        checkExpr(r.properties, next, false);
      }
      if (mode === 'create' || mode === 'merge') {
        if (r.types.length !== 1) fail('NoSingleRelationshipType', 'a created relationship needs exactly one type');
        if (r.direction === 'both' && mode === 'create') {
          fail('RequiresDirectedRelationship', 'a created relationship needs a direction');
        }
        if (r.range) fail('CreatingVarLength', 'a variable-length relationship cannot be created');
      }
      if (r.variable === null) continue;
      if ((mode === 'create' || mode === 'merge') && next.has(r.variable)) {
        fail('VariableAlreadyBound', `${r.variable} is already bound`);
      }
      if (relsHere.has(r.variable))
        fail('RelationshipUniquenessViolation', `${r.variable} is used twice in one pattern`);
      relsHere.add(r.variable);
      define(r.variable, 'rel', r.range !== null);
    }
    if (part.variable !== null) define(part.variable, 'path');
  }
  return next;
}

function checkProjection(p: Projection, scope: Scope, isWith: boolean, where: Expr | null): Scope {
  if (p.star && scope.size === 0 && !isWith) fail('NoVariablesInScope', 'RETURN * needs variables in scope');
  const out: Scope = new Map(p.star ? scope : []);
  const names = new Set<string>();
  const keyItems: Expr[] = [];
  const aggItems: Expr[] = [];
  for (const item of p.items) {
    checkExpr(item.expr, scope, true);
    if (isWith && item.alias === null && item.expr.kind !== 'var')
      fail('NoExpressionAlias', 'WITH needs an alias (AS)');
    const name = item.alias ?? item.text;
    if (names.has(name)) fail('ColumnNameConflict', `the column ${name} appears twice`);
    names.add(name);
    out.set(name, item.expr.kind === 'var' ? (scope.get(item.expr.name) ?? 'any') : exprType(item.expr));
    if (findAggregates(item.expr, [], isAgg).length > 0) aggItems.push(item.expr);
    else keyItems.push(item.expr);
  }
  for (const e of aggItems) checkAmbiguous(e, keyItems);
  const aggregating = aggItems.length > 0;
  // ORDER BY sees the projected names and, without aggregation or DISTINCT, the variables before them.
  const orderScope: Scope = aggregating || p.distinct ? new Map([...out]) : new Map([...scope, ...out]);
  // After DISTINCT or aggregation only the projected columns remain; an expression written as a projected
  // item (ORDER BY a.name after WITH DISTINCT a.name AS name) stands for that column.
  const projected = new Map(p.items.map((i) => [canon(i.expr), i.alias ?? i.text]));
  const narrow = (e: Expr) => (aggregating || p.distinct ? substitute(e, projected) : e);
  for (const o of p.order) {
    if (!aggregating && findAggregates(o.expr, [], isAgg).length > 0) {
      fail('InvalidAggregation', 'ORDER BY cannot aggregate when the projection does not');
    }
    checkExpr(narrow(o.expr), orderScope, aggregating);
  }
  for (const [e, what] of [
    [p.skip, 'SKIP'],
    [p.limit, 'LIMIT'],
  ] as [Expr | null, string][]) {
    if (!e) continue;
    if (hasVariables(e)) fail('NonConstantExpression', `${what} must not depend on variables`);
    checkExpr(e, new Map(), false);
    if (e.kind === 'literal') {
      if (typeof e.value === 'bigint' && e.value < 0n) fail('NegativeIntegerArgument', `${what} cannot be negative`);
      if (typeof e.value !== 'bigint') fail('InvalidArgumentType', `${what} needs an INTEGER`);
    }
  }
  if (where) checkPredicate(narrow(where), orderScope);
  return out;
}

// Pattern expressions are predicates: allowed in WHERE and inside exists(), refused elsewhere.
let patternsAllowed = false;

function withPatterns(allowed: boolean, f: () => void): void {
  const saved = patternsAllowed;
  patternsAllowed = allowed;
  try {
    f();
  } finally {
    patternsAllowed = saved;
  }
}

/** A WHERE: a predicate, so a node, relationship or path in a boolean position is refused. */
function checkPredicate(e: Expr, scope: Scope): void {
  const boolPosition = (x: Expr): void => {
    if (x.kind === 'var') {
      const t = scope.get(x.name);
      if (t === 'node' || t === 'rel' || t === 'path')
        fail('InvalidArgumentType', `${x.name} is a ${t}, not a BOOLEAN`);
    } else if (x.kind === 'binary' && (x.op === 'and' || x.op === 'or' || x.op === 'xor')) {
      boolPosition(x.left);
      boolPosition(x.right);
    } else if (x.kind === 'unary' && x.op === 'not') boolPosition(x.arg);
  };
  boolPosition(e);
  withPatterns(true, () => checkExpr(e, scope, false));
}

function checkExpr(e: Expr, scope: Scope, aggAllowed: boolean, inAgg = false): void {
  switch (e.kind) {
    case 'var':
      requireVar(e.name, scope);
      return;
    case 'prop':
      if (e.target.kind === 'var' && scope.get(e.target.name) === 'scalar') {
        throw new CypherTypeError('InvalidArgumentType', `${e.target.name} is not a map`, 'compile');
      }
      if (nonBooleanLiteral(e.target) && e.target.kind !== 'map') {
        throw new CypherTypeError('InvalidArgumentType', 'property access on a non-map', 'compile');
      }
      break;
    case 'unary':
      if (e.op === 'not' && nonBooleanLiteral(e.arg)) fail('InvalidArgumentType', 'NOT needs a BOOLEAN');
      break;
    case 'binary':
      if (
        (e.op === 'and' || e.op === 'or' || e.op === 'xor') &&
        (nonBooleanLiteral(e.left) || nonBooleanLiteral(e.right))
      ) {
        fail('InvalidArgumentType', `${e.op.toUpperCase()} needs BOOLEAN operands`);
      }
      break;
    case 'call': {
      const agg = isAgg(e);
      if (agg) {
        if (!aggAllowed) fail('InvalidAggregation', `${e.name}() cannot be used here`);
        if (inAgg) fail('NestedAggregation', 'an aggregate cannot contain another');
        for (const a of e.args) checkExpr(a, scope, true, true);
        return;
      }
      const fname = e.name.toLowerCase();
      checkCallArguments(e, scope);
      if (fname === 'exists') {
        withPatterns(true, () => {
          for (const a of e.args) checkExpr(a, scope, aggAllowed, inAgg);
        });
        return;
      }
      const def = lookupFunction(e.name);
      if (!def && e.name.toLowerCase() !== 'exists') fail('UnknownFunction', `unknown function ${e.name}()`);
      if (def && (e.args.length < def.min || e.args.length > def.max)) {
        fail('InvalidNumberOfArguments', `${e.name}() takes ${def.min}..${def.max} arguments`);
      }
      break;
    }
    case 'listComp':
    case 'quantifier': {
      checkExpr(e.source, scope, aggAllowed, inAgg);
      const inner = new Map([...scope, [e.variable, 'any' as VarType]]);
      withPatterns(true, () => {
        for (const c of children(e).slice(1)) checkExpr(c, inner, false, inAgg);
      });
      return;
    }
    case 'patternComp': {
      const inner = checkPattern([e.pattern], scope, 'expr');
      for (const c of children(e)) checkExpr(c, inner, false, inAgg);
      return;
    }
    case 'patternExpr': {
      if (!patternsAllowed) fail('UnexpectedSyntax', 'a pattern is a predicate here: use it in WHERE or exists()');
      for (const n of e.pattern.nodes) if (n.variable !== null) requireVar(n.variable, scope);
      for (const r of e.pattern.rels) if (r.variable !== null) requireVar(r.variable, scope);
      checkPattern([e.pattern], scope, 'expr');
      return;
    }
    case 'mapProjection':
      requireVar(e.target, scope);
      break;
    case 'existsSubquery': {
      if (e.query) {
        let inner: Scope = new Map(scope);
        for (const c of e.query.clauses) {
          if (['create', 'merge', 'set', 'remove', 'delete'].includes(c.kind)) {
            fail('InvalidClauseComposition', 'an EXISTS subquery cannot write');
          }
          inner = c.kind === 'call' ? checkCall(c, inner, false) : checkClause(c, inner);
        }
        return;
      }
      const inner = checkPattern(e.pattern ?? [], scope, 'match');
      if (e.where) checkPredicate(e.where, inner);
      return;
    }
  }
  for (const c of children(e)) checkExpr(c, scope, aggAllowed, inAgg);
}

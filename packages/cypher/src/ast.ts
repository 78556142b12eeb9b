// The abstract syntax tree the parser builds and the executor walks. Every node carries the offset of its
// first token, so later errors can point at the query text.
import type { Value } from './values.js';

export type Expr =
  | { kind: 'literal'; value: Value; pos: number }
  | { kind: 'param'; name: string; pos: number }
  | { kind: 'var'; name: string; pos: number }
  | { kind: 'list'; items: Expr[]; pos: number }
  | { kind: 'map'; entries: [string, Expr][]; pos: number }
  | { kind: 'prop'; target: Expr; key: string; pos: number }
  | { kind: 'index'; target: Expr; index: Expr; pos: number }
  | { kind: 'slice'; target: Expr; from: Expr | null; to: Expr | null; pos: number }
  | { kind: 'hasLabels'; target: Expr; labels: string[]; pos: number }
  | { kind: 'unary'; op: 'not' | '-' | '+'; arg: Expr; pos: number }
  | { kind: 'binary'; op: BinaryOp; left: Expr; right: Expr; pos: number }
  | { kind: 'compare'; ops: CompareOp[]; args: Expr[]; pos: number }
  | { kind: 'isNull'; arg: Expr; negated: boolean; pos: number }
  | { kind: 'call'; name: string; distinct: boolean; args: Expr[]; star: boolean; pos: number }
  | { kind: 'case'; subject: Expr | null; whens: [Expr, Expr][]; otherwise: Expr | null; pos: number }
  | { kind: 'listComp'; variable: string; source: Expr; where: Expr | null; map: Expr | null; pos: number }
  | {
      kind: 'quantifier';
      quantifier: 'all' | 'any' | 'none' | 'single';
      variable: string;
      source: Expr;
      where: Expr | null;
      pos: number;
    }
  | { kind: 'patternComp'; pattern: PatternPart; where: Expr | null; map: Expr; pos: number }
  | { kind: 'patternExpr'; pattern: PatternPart; pos: number }
  | { kind: 'mapProjection'; target: string; items: MapProjectionItem[]; pos: number }
  | {
      kind: 'existsSubquery';
      /** EXISTS { pattern [WHERE …] } */
      pattern: PatternPart[] | null;
      where: Expr | null;
      /** EXISTS { MATCH … RETURN … }: a query that sees the outer row. */
      query: SingleQuery | null;
      pos: number;
    };

export type BinaryOp =
  | 'or'
  | 'xor'
  | 'and'
  | '+'
  | '-'
  | '*'
  | '/'
  | '%'
  | '^'
  | 'in'
  | 'startsWith'
  | 'endsWith'
  | 'contains'
  | '=~';

export type CompareOp = '=' | '<>' | '<' | '>' | '<=' | '>=';

export type MapProjectionItem =
  | { kind: 'property'; key: string }
  | { kind: 'all' }
  | { kind: 'variable'; name: string }
  | { kind: 'entry'; key: string; value: Expr };

export interface NodePattern {
  variable: string | null;
  labels: string[];
  properties: Expr | null;
  pos: number;
}

export interface RelPattern {
  variable: string | null;
  types: string[];
  direction: 'out' | 'in' | 'both';
  /** Variable length: `*` is {min: null, max: null}; absent for a single hop. */
  range: { min: number | null; max: number | null } | null;
  properties: Expr | null;
  pos: number;
}

export interface PatternPart {
  variable: string | null;
  nodes: NodePattern[];
  rels: RelPattern[];
  pos: number;
}

export interface ProjectionItem {
  expr: Expr;
  alias: string | null;
  /** The text the item was written as: the column name when there is no alias. */
  text: string;
}

export interface SortItem {
  expr: Expr;
  descending: boolean;
}

export interface Projection {
  distinct: boolean;
  star: boolean;
  items: ProjectionItem[];
  order: SortItem[];
  skip: Expr | null;
  limit: Expr | null;
}

export type SetItem =
  | { kind: 'property'; target: Expr; key: string; value: Expr }
  | { kind: 'replace'; variable: string; value: Expr }
  | { kind: 'merge'; variable: string; value: Expr }
  | { kind: 'labels'; variable: string; labels: string[] };

export type RemoveItem =
  | { kind: 'property'; target: Expr; key: string }
  | { kind: 'labels'; variable: string; labels: string[] };

export type Clause =
  | { kind: 'match'; optional: boolean; pattern: PatternPart[]; where: Expr | null; pos: number }
  | { kind: 'unwind'; expr: Expr; alias: string; pos: number }
  | ({ kind: 'with'; where: Expr | null; pos: number } & Projection)
  | ({ kind: 'return'; pos: number } & Projection)
  | { kind: 'create'; pattern: PatternPart[]; pos: number }
  | { kind: 'merge'; pattern: PatternPart; onCreate: SetItem[]; onMatch: SetItem[]; pos: number }
  | { kind: 'set'; items: SetItem[]; pos: number }
  | { kind: 'remove'; items: RemoveItem[]; pos: number }
  | { kind: 'delete'; detach: boolean; exprs: Expr[]; pos: number }
  | {
      kind: 'call';
      name: string;
      /** null: called without parentheses, the arguments are the parameters of the same names. */
      args: Expr[] | null;
      /** null: no YIELD (a standalone call returns every output). */
      yields: { name: string; alias: string }[] | null;
      where: Expr | null;
      pos: number;
    };

export interface SingleQuery {
  clauses: Clause[];
}

export interface Query {
  parts: SingleQuery[];
  /** unionAll[i] says whether parts[i] and parts[i+1] are joined by UNION ALL. */
  unionAll: boolean[];
}

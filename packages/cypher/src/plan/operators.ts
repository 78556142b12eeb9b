// The logical plan: a tree of operators over rows of bindings, built from the bound query (planner.ts),
// rewritten (rewrite.ts) and run (physical.ts). Every operator pulls rows from `input`; a leaf `Argument`
// yields the row the plan is run on (the empty row at the top, the outer row inside Optional). Variables whose
// name starts with a space are the planner's own (a relationship the query did not name): no query can
// write such a name, and no projection returns it.
import type { Expr, SortItem } from '../ast.js';
import type { Direction } from '../graph.js';

/** A predicate of a Filter: an expression, a node's labels, or a pattern's property map. */
export type Predicate =
  | { kind: 'expr'; expr: Expr }
  | { kind: 'labels'; variable: string; labels: string[] }
  | { kind: 'props'; variable: string; map: Expr }
  /** The variable holds a node (an anchor bound before the MATCH: null or another value matches nothing). */
  | { kind: 'isNode'; variable: string };

/**
 * Checks a scan makes on each node before it builds a row (pushed down from a Filter): labels, and a pattern's
 * property map whose values are evaluated once per input row.
 */
export interface NodeCheck {
  labels: string[];
  props: Expr | null;
}

/** One output column of a projection or aggregation. */
export interface Item {
  name: string;
  expr: Expr;
}

/** An aggregation computed over a column store: a grouping key or an aggregate of `variable.key`. */
export type ColumnItem =
  | { kind: 'key'; name: string; key: string }
  | { kind: 'count'; name: string }
  /** count(o) of an optional hop's variable: the matches it found (OptionalHop). */
  | { kind: 'hopCount'; name: string }
  | { kind: 'agg'; name: string; fn: 'count' | 'sum' | 'avg' | 'min' | 'max' | 'collect'; key: string };

/**
 * Counts over the rows of row-wise operators above a VarLengthExpand over slots (var-count.ts): `inner` (its
 * bottom an Argument) runs once per distinct end node, its rows weighed by the paths reaching that end; with
 * `hop`, a folded OPTIONAL MATCH (each row max(k, 1), `hopNames` the count(o) items adding k).
 */
export interface EndsCount {
  inner: Op;
  hop?: OptionalHop;
  hopNames: string[];
}

/**
 * `OPTIONAL MATCH (v)-[:types]-(o:labels)` after an aggregation's pattern, the aggregation reading `o` (and the
 * relationship) only through count(o): each row of the pattern stands for max(k, 1) rows, k the relationships
 * from v's node to a node with the labels, so the aggregation stays over columns with a multiplicity per row.
 */
export interface OptionalHop {
  variable: string;
  direction: Direction;
  types: string[];
  labels: string[];
  /** The variables the OPTIONAL MATCH binds (the far node, the relationship). */
  binds: string[];
}

/** A comparison of `variable.key` with a value known before the scan, answered over a column. */
export interface ColumnFilter {
  key: string;
  op: '=' | '<>' | '<' | '>' | '<=' | '>=';
  value: Expr;
}

/** Which variable of a one-relationship pattern a column is read from. */
export type Side = 'from' | 'rel' | 'to';

/** A grouping key or an aggregate of a one-relationship pattern, over node and relationship columns. */
export type ExpandItem =
  | { kind: 'key'; name: string; side: Side; key: string }
  /** Grouped by the node itself (`RETURN a, count(*)`). */
  | { kind: 'node'; name: string; side: 'from' | 'to' }
  /** `type(r)`. */
  | { kind: 'type'; name: string }
  | { kind: 'count'; name: string }
  | { kind: 'hopCount'; name: string }
  /** `count(DISTINCT b)` of an end node. */
  | { kind: 'distinct'; name: string; side: 'from' | 'to' }
  | { kind: 'agg'; name: string; fn: 'count' | 'sum' | 'avg' | 'min' | 'max' | 'collect'; side: Side; key: string };

/** `[NOT] EXISTS { (end)-[:types]->(:labels) }` on one end of a one-relationship pattern. */
export interface ExistsTest {
  side: 'from' | 'to';
  direction: Direction;
  types: string[];
  labels: string[];
  anti: boolean;
}

interface Base {
  /** Estimated rows out (the planner's guess from the graph's counts). */
  est: number;
}

/** What Expand and VarLengthExpand share: from `from` along `types` in `direction`, binding `rel` and `to`. */
interface ExpandFields {
  input: Op;
  from: string;
  rel: string;
  to: string;
  direction: Direction;
  types: string[];
  /** `to` is bound before the expansion: the relationship must reach it. */
  into: boolean;
  /** Relationship variables bound earlier in the same MATCH: relationships are unique within it. */
  distinctFrom: string[];
}

export type Op = Base &
  (
    | { op: 'Argument' }
    | { op: 'NodeScan'; input: Op; variable: string; where?: NodeCheck }
    | { op: 'NodeByLabelScan'; input: Op; variable: string; label: string; where?: NodeCheck }
    | {
        op: 'NodeIndexSeek';
        input: Op;
        variable: string;
        label: string | undefined;
        key: string;
        value: Expr;
        where?: NodeCheck;
      }
    | {
        /** Nodes whose `key` lies in a range (GraphReader.findNodesInRange); the comparisons are filtered again above. */
        op: 'NodeIndexRangeSeek';
        input: Op;
        variable: string;
        label: string | undefined;
        key: string;
        lower?: { value: Expr; inclusive: boolean };
        upper?: { value: Expr; inclusive: boolean };
        where?: NodeCheck;
      }
    | (ExpandFields & {
        op: 'Expand';
        /** `rel` is bound before the MATCH: the expansion must follow that relationship. */
        relBound?: boolean;
        /**
         * `rel` is anonymous and nothing reads it: the far ends come from the graph's adjacency
         * (GraphReader.adjacent, nodeAt), tested for `toLabels` on their slots before a node is built.
         * `relFilters`: the relationship is named but read only by these comparisons of its properties with
         * known values (a WHERE conjunct each, `expr` the conjunct), tested on its relationship columns' slots.
         */
        adjacency?: { toLabels: string[]; relFilters?: { filter: ColumnFilter; expr: Expr }[] };
      })
    | (ExpandFields & {
        op: 'VarLengthExpand';
        min: number;
        max: number;
        /** Walked from the pattern's right end: the list is reversed into the pattern's order. */
        reversed: boolean;
        /** A property map every relationship on the path must match. */
        relProps: Expr | null;
        /** `rel` is a list of relationships bound before the MATCH: the path must be that list. */
        relBound?: boolean;
        /** `rel` is anonymous and nothing reads it: paths walked over slots, binding only `to` (var-paths.ts). */
        slots?: boolean;
        /**
         * With `slots`, expansions of the same MATCH kept apart from this one walk one relationship space: the
         * columns of `space` (all their types), this one's `types` within it. `distinctFrom` then holds their
         * relationship slots, and `bindRels` binds this path's for a later one (var-paths.ts RelSlots).
         */
        space?: string[];
        bindRels?: boolean;
        /** With `slots`: labels `to` must carry, tested on its slot before a row is built (a Filter repeats them). */
        toLabels?: string[];
      })
    /**
     * The relationships of `types` (GraphReader.scanRelationships), each bound with its ends as `from` and `to`
     * in `direction` (both ways: once per orientation, a self-loop once): a pattern part starting at a rare type.
     */
    | {
        op: 'RelationshipScan';
        input: Op;
        from: string;
        rel: string;
        to: string;
        direction: Direction;
        types: string[];
        distinctFrom: string[];
        /** Labels `from` and `to` must carry, tested on the ends before a row is built (rewrite.ts, last). */
        labels?: { from: string[]; to: string[] };
        /** A slot group's member (slot-groups.ts): read from the columns of `space`, `rel` bound as its slot. */
        slots?: boolean;
        space?: string[];
        bindRels?: boolean;
      }
    | { op: 'Filter'; input: Op; predicates: Predicate[] }
    | { op: 'Unwind'; input: Op; expr: Expr; alias: string }
    /** The input row extended (or replaced, `keep` false) by the items. */
    | { op: 'Projection'; input: Op; items: Item[]; keep: boolean }
    | {
        op: 'Aggregate';
        input: Op;
        keys: Item[];
        items: Item[];
        aggregates: Extract<Expr, { kind: 'call' }>[];
        /** Each group's row is its first input row extended by the items (ORDER BY or WHERE read it). */
        keep: boolean;
        /** The variables the ORDER BY and WHERE after it read. */
        reads: string[];
        /** Every group becomes a row of the result: more than max_rows groups stop the query before it ends. */
        bounded?: boolean;
        /**
         * An OPTIONAL MATCH of one relationship folded in (read only by count(o)): each input row is added
         * max(k, 1) times, count(o) adds k, k from the graph's adjacency (optional-expand.ts).
         */
        hop?: OptionalHop;
      }
    | { op: 'Distinct'; input: Op; columns: string[] }
    | { op: 'Sort'; input: Op; order: SortItem[]; bounded: boolean }
    /**
     * `ties`: below an OPTIONAL MATCH whose rows keep the order's keys (top-ties.ts): the SKIP + LIMIT best rows
     * and every row tied with the last of them, in input order; `reads`, when known, the variables of its rows
     * that the plan above reads (chain-columns.ts then reads the rows off a chain).
     */
    /** `distinct`: a DISTINCT on these columns folded in (the order reads only them), tested on the rows kept. */
    | {
        op: 'Top';
        input: Op;
        order: SortItem[];
        skip: Expr | null;
        limit: Expr;
        ties?: boolean;
        reads?: string[];
        distinct?: string[];
      }
    | { op: 'Skip'; input: Op; count: Expr }
    | { op: 'Limit'; input: Op; count: Expr }
    /** Each input row with the rows of `inner` run on it, or with `nullable` set to null when there are none. */
    | { op: 'Optional'; input: Op; inner: Op; nullable: string[] }
    /**
     * OPTIONAL MATCH of one relationship from a bound node: the Expand's rows kept by `predicates`, or the input
     * row with `nullable` set to null when none is (no inner plan run per row).
     */
    | {
        op: 'OptionalExpand';
        input: Op;
        expand: Extract<Op, { op: 'Expand' }>;
        predicates: Predicate[];
        nullable: string[];
      }
    | { op: 'Union'; inputs: Op[]; all: boolean; columns: string[] }
    /** Each input row for which `inner` (run on it) gives a row, or none with `anti` (pattern predicates, EXISTS). */
    | { op: 'SemiApply'; input: Op; inner: Op; anti: boolean }
    /** A path variable built from the variables of its pattern part (`rels` bind single relationships or lists). */
    | { op: 'NamedPath'; input: Op; variable: string; nodes: string[]; rels: string[] }
    | { op: 'ProduceResults'; input: Op; columns: string[] }
    /** Not planned: the query runs in the clause-by-clause interpreter (execute.ts). */
    | { op: 'Interpret'; reason: string }
    /** Rewritten shapes. */
    | {
        op: 'ColumnarAggregate';
        variable: string;
        label: string | undefined;
        filters: ColumnFilter[];
        /** Pattern predicates on the node (ExpandExists folded in; `side` is 'from'). */
        exists?: ExistsTest[];
        /** An OPTIONAL MATCH of one relationship from the node, as a multiplicity per slot. */
        optional?: OptionalHop;
        items: ColumnItem[];
        /** The same aggregation row by row, when the graph cannot give the columns. */
        fallback: Op;
      }
    | { op: 'NodeCount'; name: string; label: string | undefined; fallback: Op }
    /** A scan whose filters are answered over the graph's columns: nodes are built only for the slots kept. */
    | {
        op: 'NodeColumnScan';
        variable: string;
        label: string | undefined;
        filters: ColumnFilter[];
        /** Pattern predicates on the node (ExpandExists folded in), answered per slot after the filters. */
        exists?: ExistsTest[];
        /**
         * Late materialisation: rows of these properties read from the columns (`name` = `variable.key`) instead
         * of the node, when nothing after the scan needs the node itself.
         */
        columns?: { name: string; key: string }[];
        /** Over `columns` (column-select.ts): DISTINCT on these names, then ORDER BY, SKIP, LIMIT, as slots. */
        distinct?: string[];
        order?: { name: string; descending: boolean }[];
        skip?: Expr | null;
        limit?: Expr;
        /** Planned as a range seek on an indexed key: the selection starts at the index's slots. */
        seek?: boolean;
        /** The same scan and filter row by row, when the graph cannot give the columns or the nodes. */
        fallback: Op;
      }
    /**
     * `OPTIONAL MATCH (n)-[]-(o:L)` from a column scan's node, its relationship read by nothing, projected to
     * properties of `n` and `o` only: each row read from the node columns at the scanned slot and at each far
     * slot (adjacency), or with `o`'s properties null; no node, relationship or intermediate row.
     */
    | {
        op: 'OptionalColumnScan';
        scan: Extract<Op, { op: 'NodeColumnScan' }>;
        /** The OPTIONAL MATCH's far node. */
        to: string;
        direction: Direction;
        types: string[];
        toLabels: string[];
        items: { name: string; key: string; side: 'from' | 'to' }[];
        /** The Projection over the OptionalExpand over the scan, row by row. */
        fallback: Op;
      }
    /**
     * An aggregation over one relationship pattern `(from)-[rel]->(to)` with nothing before it, over the
     * graph's relationship and node columns (GraphReader.scanRelationshipColumns): no relationship, node or row
     * per match. Labels and column filters of either end and of the relationship are tested on the columns.
     */
    | {
        op: 'ColumnarExpandAggregate';
        from: string;
        rel: string;
        to: string;
        direction: Direction;
        types: string[];
        fromLabels: string[];
        toLabels: string[];
        filters: (ColumnFilter & { side: Side })[];
        /** Pattern predicates on an end (ExpandExists folded in), answered once per node slot. */
        exists: ExistsTest[];
        /** An OPTIONAL MATCH of one relationship from an end, as a multiplicity per row. */
        optional?: OptionalHop & { side: 'from' | 'to' };
        items: ExpandItem[];
        /** Every group becomes a row of the result: more than max_rows groups stop the query. */
        bounded?: boolean;
        /** The same aggregation row by row, when the graph cannot give the columns. */
        fallback: Op;
      }
    /**
     * SemiApply of a one-relationship pattern from a bound node to a new one with only labels on it
     * (`WHERE [NOT] EXISTS { (n)-[:T]->(:L) }`): answered from the graph's adjacency (GraphReader.adjacent) and
     * the labels' node slots, with no relationship or row per neighbour; by the SemiApply's `inner` otherwise.
     */
    | {
        op: 'ExpandExists';
        input: Op;
        from: string;
        direction: Direction;
        types: string[];
        toLabels: string[];
        anti: boolean;
        inner: Op;
      }
    /**
     * A chain of fixed hops from a column scan projected to its nodes and their properties (chain-columns.ts):
     * walked over node and relationship slots, each row read from the node columns; `key` null: the node.
     */
    | {
        op: 'ChainProjection';
        anchor: Extract<Op, { op: 'NodeColumnScan' }>;
        /**
         * The anchor's nodes are the rows of `input` (each row's `anchor.variable`), not a scan: the ends of a
         * variable-length expansion over slots, each row's relationship slots (bound to `apart`) kept apart from
         * the hops', all in the relationship space `space`.
         */
        rows?: { input: Op; apart: string[]; space: string[] };
        /** Labels the anchor must carry besides its scan's. */
        anchorLabels: string[];
        /** Comparisons of a chain node's properties with known values, tested on its slot as it is bound. */
        filters?: (ColumnFilter & { variable: string })[];
        /** Pattern predicates on a chain node (`side` unused), answered per slot as it is bound. */
        exists?: (ExistsTest & { variable: string })[];
        hops: {
          from: string;
          to: string;
          rel: string;
          direction: Direction;
          types: string[];
          distinctFrom: string[];
          toLabels: string[];
          /** The last hop only: an OPTIONAL MATCH's, its far end null (slot -1) where it finds nothing. */
          optional?: boolean;
          /** Comparisons of the relationship's properties with known values, tested on its slot's columns. */
          relFilters?: ColumnFilter[];
        }[];
        items: { name: string; variable: string; key: string | null }[];
        /** Instead of rows: one row, each name the number of matches (a count of the chain's last hop). */
        count?: string[];
        /**
         * Instead of rows: an aggregation over the matches, grouped and accumulated over columns at the slots of
         * two of the chain's nodes (as ColumnarExpandAggregate's ends; `rel` sides never occur).
         */
        aggregate?: {
          from: string;
          to: string;
          /** A hop's relationship the items read (`type(r)`, `r.key`): its slot per match, its columns. */
          rel?: string;
          items: ExpandItem[];
          bounded?: boolean;
          /** An OPTIONAL MATCH folded in, from one of the two nodes: a multiplicity per match. */
          optional?: OptionalHop & { side: 'from' | 'to' };
        };
        /** The first hop is read from the relationship columns of its types (a RelationshipScan's chain). */
        relAnchor?: boolean;
        /** The Projection over the expansions, row by row. */
        fallback: Op;
      }
    /** count(*) of the rows `Expand`/`VarLengthExpand` would give, without building them. */
    | { op: 'ExpandCount'; input: Op; names: string[]; expand: Op; ends?: EndsCount }
  );

export type OpName = Op['op'];

/** The operators directly under `op`, in display order. */
export function inputsOf(op: Op): Op[] {
  const out: Op[] = [];
  mapInputs(op, (x) => {
    out.push(x);
    return x;
  });
  return out;
}

/** `op` with each operator directly under it replaced by `f` of it (called in display order). */
export function mapInputs(op: Op, f: (x: Op) => Op): Op {
  switch (op.op) {
    case 'Argument':
    case 'Interpret':
    case 'ColumnarAggregate':
    case 'NodeCount':
    case 'NodeColumnScan':
    case 'OptionalColumnScan':
    case 'ColumnarExpandAggregate':
      return op;
    case 'ChainProjection':
      return op.rows ? { ...op, rows: { ...op.rows, input: f(op.rows.input) } } : op;
    case 'Union':
      return { ...op, inputs: op.inputs.map(f) };
    case 'Optional':
    case 'SemiApply':
      return { ...op, input: f(op.input), inner: f(op.inner) };
    default:
      return { ...op, input: f(op.input) } as Op;
  }
}

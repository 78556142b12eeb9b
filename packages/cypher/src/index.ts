// @evident/cypher: an openCypher engine over a small graph interface. See README.md.
export type { Clause, Expr, PatternPart, Query } from './ast.js';
export { type Column, columnsFromNodes, type NodeColumns, type RelationshipColumns } from './columns.js';
export { compare, equals, equivalenceKey, orderCompare } from './compare.js';
export { type Budgets, DEFAULT_BUDGETS, MAX_VALUE_DEPTH } from './budget.js';
export {
  compile,
  type PlannedResult,
  planOf,
  type PreparedCypher,
  prepareCypher,
  type RunOptions,
  runCypher,
  runPrepared,
  splitMode,
} from './engine.js';
export { DIVERGENCE, PlanCache, type PlanCacheOptions } from './plan-cache.js';
export { describePlan, type PlanDescription, planText } from './plan/explain.js';
export {
  CYPHER_ERRORS,
  CypherArgumentError,
  CypherArithmeticError,
  type CypherCode,
  CypherEntityNotFoundError,
  CypherError,
  type CypherErrorKind,
  type CypherLimitCode,
  CypherLimitError,
  CypherParameterMissingError,
  type CypherPhase,
  CypherSemanticError,
  CypherSyntaxError,
  CypherTypeError,
  type Position,
} from './errors.js';
export type { Result } from './execute.js';
export { formatFloat } from './functions.js';
export { type Direction, type GraphReader, type GraphWriter, isWritable, type RangeBound } from './graph.js';
export { MemoryGraph, type WriteStats } from './memory-graph.js';
export { MAX_NESTING, parse } from './parser.js';
export { MAX_REGEX_SIZE, MAX_REGEX_WORK } from './regex.js';
export { coerceArgument, fitsType, type Procedure, type ProcedureField, type Procedures } from './procedures.js';
export {
  type CypherMap,
  DurationValue,
  fromJs,
  GraphNode,
  GraphRelationship,
  PathValue,
  type Properties,
  TemporalValue,
  toJs,
  type Value,
  typeName,
} from './values.js';

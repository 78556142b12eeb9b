// The openCypher TCK's error kinds as typed errors over the one Evident error base. `code` is stable and
// snake_case (`cypher_syntax_error`, …); `detail` is the TCK's detail name (`UndefinedVariable`, …); `phase`
// says whether the error came before any graph access (compile) or while running (runtime).
import { defineCatalogue, EvidentError, statusOf } from '@evident/contract';

export type CypherErrorKind =
  | 'SyntaxError'
  | 'SemanticError'
  | 'TypeError'
  | 'ArgumentError'
  | 'ArithmeticError'
  | 'ConstraintVerificationFailed'
  | 'EntityNotFound'
  | 'ParameterMissing'
  | 'ProcedureError';

export type CypherPhase = 'compile' | 'runtime';

/** A place in the query text: 1-based line and column, 0-based offset. */
export interface Position {
  line: number;
  column: number;
  offset: number;
}

// Deliberate likeness: every package's catalogue has this shape (code → status and meaning, by defineCatalogue),
// which the duplicates tool pairs across packages; the rows are this package's own.
/**
 * The engine's error codes, in one table: code → HTTP status and meaning. Each error takes its status from it;
 * test/error-catalogue.test.ts checks that every code thrown in src is in it.
 */
export const CYPHER_ERRORS = defineCatalogue({
  cypher_syntax_error: { status: 400, meaning: 'the text is not openCypher (with line and column)' },
  cypher_semantic_error: { status: 400, meaning: 'a query that parses but means nothing (an undefined variable, …)' },
  cypher_type_error: { status: 400, meaning: 'a value of the wrong type for an operator or function' },
  cypher_argument_error: { status: 400, meaning: 'an argument a function does not take' },
  cypher_arithmetic_error: { status: 400, meaning: 'an integer overflow, a division by zero' },
  cypher_constraint_failed: { status: 400, meaning: 'a write that breaks a constraint (deleting a connected node)' },
  cypher_entity_not_found: { status: 400, meaning: 'a deleted node or relationship read' },
  cypher_parameter_missing: { status: 400, meaning: 'a $parameter the call does not give' },
  cypher_procedure_error: { status: 400, meaning: 'a procedure call the engine refuses' },
  cypher_timeout: { status: 408, meaning: 'the query ran past its time budget' },
  cypher_too_many_rows: { status: 413, meaning: 'more rows than max_rows' },
  cypher_list_too_large: { status: 413, meaning: 'a list longer than max_list_size' },
  cypher_string_too_long: { status: 413, meaning: 'a string longer than max_string_length' },
  cypher_memory_exceeded: { status: 413, meaning: 'more memory held than max_memory_bytes' },
  cypher_value_too_deep: { status: 413, meaning: 'a value nested deeper than the limit' },
  cypher_regex_too_large: { status: 400, meaning: 'a regular expression past its size or work limit' },
});

export type CypherCode = keyof typeof CYPHER_ERRORS;

const CODES: Record<CypherErrorKind, CypherCode> = {
  SyntaxError: 'cypher_syntax_error',
  SemanticError: 'cypher_semantic_error',
  TypeError: 'cypher_type_error',
  ArgumentError: 'cypher_argument_error',
  ArithmeticError: 'cypher_arithmetic_error',
  ConstraintVerificationFailed: 'cypher_constraint_failed',
  EntityNotFound: 'cypher_entity_not_found',
  ParameterMissing: 'cypher_parameter_missing',
  ProcedureError: 'cypher_procedure_error',
};

export class CypherError extends EvidentError {
  readonly kind: CypherErrorKind;
  readonly detail: string;
  readonly phase: CypherPhase;
  readonly position: Position | undefined;

  constructor(kind: CypherErrorKind, detail: string, message: string, phase: CypherPhase, position?: Position) {
    const where = position ? ` (line ${position.line}, column ${position.column})` : '';
    super(CODES[kind], `${message}${where}`, {
      status: statusOf(CYPHER_ERRORS, CODES[kind]),
      problems: [{ path: '/cypher', message: `${detail}: ${message}${where}` }],
    });
    this.kind = kind;
    this.detail = detail;
    this.phase = phase;
    this.position = position;
  }
}

export class CypherSyntaxError extends CypherError {
  constructor(detail: string, message: string, position?: Position, phase: CypherPhase = 'compile') {
    super('SyntaxError', detail, message, phase, position);
  }
}

export class CypherTypeError extends CypherError {
  constructor(detail: string, message: string, phase: CypherPhase = 'runtime', position?: Position) {
    super('TypeError', detail, message, phase, position);
  }
}

// Deliberately one small class per kind, alike in shape: callers catch by class, and the error's name is its class's.
export class CypherArgumentError extends CypherError {
  constructor(detail: string, message: string, phase: CypherPhase = 'runtime') {
    super('ArgumentError', detail, message, phase);
  }
}

export class CypherArithmeticError extends CypherError {
  constructor(detail: string, message: string) {
    super('ArithmeticError', detail, message, 'runtime');
  }
}

// Deliberately one small class per kind, alike in shape: callers catch by class, and the error's name is its class's.
export class CypherSemanticError extends CypherError {
  constructor(detail: string, message: string, phase: CypherPhase = 'runtime') {
    super('SemanticError', detail, message, phase);
  }
}

export class CypherEntityNotFoundError extends CypherError {
  constructor(detail: string, message: string) {
    super('EntityNotFound', detail, message, 'runtime');
  }
}

export class CypherParameterMissingError extends CypherError {
  constructor(name: string) {
    super('ParameterMissing', 'MissingParameter', `parameter $${name} is not given`, 'compile');
  }
}

/** The stable codes of a query stopped by one of its budgets (see RunOptions and README "Budgets"). */
export type CypherLimitCode =
  | 'cypher_timeout'
  | 'cypher_too_many_rows'
  | 'cypher_list_too_large'
  | 'cypher_string_too_long'
  | 'cypher_memory_exceeded'
  | 'cypher_value_too_deep'
  | 'cypher_regex_too_large';

/**
 * A query stopped by a budget: past its time, its rows, the size of a list or string it builds, the memory it
 * holds, or the work of one regular expression. `limit` names the budget as the wire names it (`max_rows`,
 * `max_list_size`, …) and `value` is the budget it ran into.
 */
export class CypherLimitError extends EvidentError {
  readonly limit: string;
  readonly value: number;

  constructor(code: CypherLimitCode, limit: string, value: number, message: string) {
    super(code, message, { status: statusOf(CYPHER_ERRORS, code), problems: [{ path: `/${limit}`, message }] });
    this.limit = limit;
    this.value = value;
  }
}

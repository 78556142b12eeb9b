// Typed errors with a stable `code`; validation errors also name the offending `field`
// (and, for batches, the `index` of the claim that failed). Every one is an EvidentError (@evident/contract):
// its `status` (what a surface answers with; none: the fault is ours, 500) comes from KB_ERRORS, the one table of
// kb-core's codes, and `problems` lists what was wrong where, as JSON pointers, so every surface maps them with
// the one toWireError. A test checks that every code thrown in src is in the table and that the README tables
// agree with it.
import { defineCatalogue, EvidentError, fieldToPointer, type EvidentErrorOptions } from '@evident/contract';

const v = (meaning: string) => ({ status: 400, meaning });

// Deliberate likeness: every package's catalogue has this shape (code → status and meaning, by defineCatalogue),
// which the duplicates tool pairs across packages; the rows are this package's own.
/** kb-core's error codes: code → HTTP status (null: ours, answered 500 `internal_error`) and meaning. */
export const KB_ERRORS = defineCatalogue({
  // A value the library refuses (KbValidationError, `details[0].path` names it).
  missing_field: v('a required field is absent'),
  invalid_type: v('a value of the wrong type'),
  invalid_value: v('a value of the right type that the call does not accept'),
  out_of_range: v('a number outside its range'),
  too_long: v('a name or list longer than its limit'),
  too_large: v('a payload, provenance or batch larger than its limit'),
  too_deep: v('query parameters nested deeper than the Cypher parser allows'),
  empty_name: v('an empty entity name'),
  empty_text: v('an empty text to extract from'),
  invalid_tuple: v("an inquiry's subject or object that is an array but not [name, type]"),
  invalid_timestamp: v('a time that is not an ISO 8601 timestamp or epoch milliseconds'),
  conflicting_values: v('a value given both in its position and in the options object, differently'),
  unknown_option: v('an option key the call does not take'),
  invalid_arguments: v('an argument too many, or a value given twice'),
  unknown_backend: v('a backend other than the ones the base offers'),
  // A claim or registration the registry refuses (the first three only with strict).
  type_constraint: v("a subject or object type the predicate's rule does not allow (strict)"),
  predicate_class: v("a predicate used under another class than its rule's (strict)"),
  unknown_type: v('an entity type no registered vocabulary has (strict)'),
  payload_schema: v("a payload that does not match its predicate type's JSON Schema"),
  provenance_extra: v('provenance fields the source type does not declare'),
  unknown_reference: v('a derived_from claim id that does not exist'),
  retracted_reference: v('a derived_from claim that is retracted'),
  unknown_vocabulary: v('a vocabulary namespace nobody registered'),
  exists: v('a registration, or a snapshot destination, that already exists'),
  invalid_schema: v('a registered JSON Schema that is not valid'),
  not_empty: v('a restore into a base that already holds claims'),
  checksum_mismatch: v("a snapshot file that does not match its manifest's SHA-256"),
  cypher_read_only: v('a Cypher write clause through the read-only query call'),
  // Opening a base (KbOpenError, `details[0].path` is /path).
  invalid_path: v('a malformed path or URL, or no database name'),
  backend_unavailable: v('the database server is not reachable'),
  bad_format: v('a file or tables of that name that are not an Evident KB'),
  open_failed: v('the base cannot be opened (authentication, permissions)'),
  snapshot_failed: v('a snapshot cannot be written to its destination'),
  not_found: { status: 404, meaning: 'no such entity, claim, source or topic; no base or snapshot at that path' },
  conflict: { status: 409, meaning: 'another writer kept winning the log head (the library retries first)' },
  not_computed: { status: 409, meaning: 'a topology or structural-embedding read before it was computed' },
  search_unavailable: { status: 409, meaning: 'search on a what-if view that adds claims' },
  cypher_timeout: { status: 408, meaning: 'a query ran past its timeout_ms and was stopped with its thread' },
  what_if_timeout: { status: 408, meaning: 'a what-if ran past its timeout_ms and was stopped with its thread' },
  cypher_memory_limit: { status: 413, meaning: "a query needed more than its worker thread's heap cap" },
  what_if_memory_limit: { status: 413, meaning: "a what-if needed more than its worker thread's heap cap" },
  busy: { status: 429, meaning: 'too many queries, what-ifs or topology runs waiting; Retry-After says when' },
  extraction_unavailable: { status: 501, meaning: 'a text, chat or review call on a base opened without extraction' },
  embedding_dimension: { status: 502, meaning: 'the embedder answered a vector of another length than its dim' },
  embedding_count: { status: 502, meaning: 'the embedder answered another number of vectors than texts' },
  closed: { status: 503, meaning: 'the base was closed' },
  off_thread_unavailable: { status: 503, meaning: 'the worker thread for a query or what-if could not be made ready' },
  capacity_exceeded: { status: 507, meaning: 'a write would take the in-memory index past its design limit' },
  corrupt: { status: null, meaning: 'the on-disk log is not one this version can read' },
  storage_failed: { status: null, meaning: "the storage failed (the driver's error is the cause)" },
  read_only: { status: null, meaning: 'a write through a store opened read-only (a bug of ours)' },
  invalid_head: { status: null, meaning: 'a negative or fractional expected log head (a bug of ours)' },
});

export type KbErrorCode = keyof typeof KB_ERRORS;

/**
 * A code of the table takes the table's status; another package's code on a KbError (kb-extract's providers,
 * archives, embedders) keeps the status its own table gives, passed in `options`.
 */
function withStatus(code: string, options: EvidentErrorOptions): EvidentErrorOptions {
  const entry = (KB_ERRORS as Record<string, { status: number | null } | undefined>)[code];
  if (!entry) return options;
  const { status: _ignored, ...rest } = options;
  return entry.status === null ? rest : { ...rest, status: entry.status };
}

export class KbError extends EvidentError {
  constructor(code: KbErrorCode | (string & {}), message: string, options: EvidentErrorOptions = {}) {
    super(code, message, withStatus(code, options));
  }
}

export class KbValidationError extends KbError {
  readonly field: string;
  /** Position in the batch of the claim that failed (ingestBatch only). */
  readonly index: number | undefined;
  constructor(code: string, field: string, message: string, index?: number) {
    const located = index === undefined ? field : `claims[${index}].${field}`;
    // A refused value is the caller's: 400 also for another package's code (kb-extract's unknown_platform, …).
    super(code, `${located}: ${message}`, { status: 400, problems: [{ path: fieldToPointer(located), message }] });
    this.field = field;
    this.index = index;
  }
  /** The same error, located inside a batch. */
  at(index: number): KbValidationError {
    return new KbValidationError(this.code, this.field, this.message.replace(/^[^:]*: /, ''), index);
  }
}

/** A path or URL that cannot be opened, or a backend that does not exist. */
export class KbOpenError extends KbError {
  readonly field: string;
  constructor(code: string, field: string, message: string, options?: { cause?: unknown }) {
    super(code, message, { problems: [{ path: fieldToPointer(field), message }], cause: options?.cause });
    this.field = field;
  }
}

export class KbNotFoundError extends KbError {
  constructor(what: string, id: string) {
    super('not_found', `${what} not found: ${id}`);
  }
}

export class KbClosedError extends KbError {
  constructor() {
    super('closed', 'the knowledge base is closed');
  }
}

/** Another writer appended to the log since this process last read it (the engine retries after catching up). */
export class KbConflictError extends KbError {
  readonly expectedHead: number;
  readonly actualHead: number;
  constructor(expectedHead: number, actualHead: number) {
    super('conflict', `log head moved: expected ${expectedHead}, found ${actualHead}`);
    this.expectedHead = expectedHead;
    this.actualHead = actualHead;
  }
}

/** The on-disk log is not one this version can read (bad JSON, unknown format version): ours, never the caller's. */
export class KbCorruptError extends KbError {
  constructor(message: string) {
    super('corrupt', message);
  }
}

/**
 * A text, chat or review call on a base opened without extraction (`open` from '@evident/kb-core' rather than
 * from '@evident/kb'). 501: this build of the base does not offer it.
 */
export class KbExtractionUnavailableError extends KbError {
  constructor(operation: string) {
    super(
      'extraction_unavailable',
      `${operation} needs claim extraction, which this base was opened without: import { open } from '@evident/kb' ` +
        `(or pass { extraction } to open)`,
    );
  }
}

/**
 * The write would take the in-memory index past what it is designed to hold (entities or facts). Nothing of the
 * write is kept; 507: the base cannot store more, whatever the request.
 */
export class KbCapacityError extends KbError {
  constructor(what: string, limit: number) {
    super('capacity_exceeded', `more than ${limit} ${what}: beyond the in-memory index's design`);
  }
}

// Typed errors with a stable `code`; validation errors also name the offending `field`
// (and, for batches, the `index` of the claim that failed). Every one is an EvidentError (@evident/contract):
// `status` says what a surface answers with (none: the fault is ours, 500) and `problems` lists what was wrong
// where, as JSON pointers, so every surface maps them with the one toWireError.
import { EvidentError, fieldToPointer, type EvidentErrorOptions } from '@evident/contract';

export class KbError extends EvidentError {
  constructor(code: string, message: string, options: EvidentErrorOptions = {}) {
    super(code, message, options);
  }
}

export class KbValidationError extends KbError {
  readonly field: string;
  /** Position in the batch of the claim that failed (ingestBatch only). */
  readonly index: number | undefined;
  constructor(code: string, field: string, message: string, index?: number) {
    const located = index === undefined ? field : `claims[${index}].${field}`;
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
    super(code, message, { status: 400, problems: [{ path: fieldToPointer(field), message }], cause: options?.cause });
    this.field = field;
  }
}

export class KbNotFoundError extends KbError {
  constructor(what: string, id: string) {
    super('not_found', `${what} not found: ${id}`, { status: 404 });
  }
}

export class KbClosedError extends KbError {
  constructor() {
    super('closed', 'the knowledge base is closed', { status: 503 });
  }
}

/** Another writer appended to the log since this process last read it (the engine retries after catching up). */
export class KbConflictError extends KbError {
  readonly expectedHead: number;
  readonly actualHead: number;
  constructor(expectedHead: number, actualHead: number) {
    super('conflict', `log head moved: expected ${expectedHead}, found ${actualHead}`, { status: 409 });
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
      { status: 501 },
    );
  }
}

/**
 * The write would take the in-memory index past what it is designed to hold (entities or facts). Nothing of the
 * write is kept; 507: the base cannot store more, whatever the request.
 */
export class KbCapacityError extends KbError {
  constructor(what: string, limit: number) {
    super('capacity_exceeded', `more than ${limit} ${what}: beyond the in-memory index's design`, { status: 507 });
  }
}

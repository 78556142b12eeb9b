// Typed errors with a stable `code`; validation errors also name the offending `field`
// (and, for batches, the `index` of the claim that failed).

export class KbError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = new.target.name;
    this.code = code;
  }
}

export class KbValidationError extends KbError {
  readonly field: string;
  /** Position in the batch of the claim that failed (ingestBatch only). */
  readonly index: number | undefined;
  constructor(code: string, field: string, message: string, index?: number) {
    super(code, index === undefined ? `${field}: ${message}` : `claims[${index}].${field}: ${message}`);
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
    super(code, message);
    this.field = field;
    if (options?.cause !== undefined) (this as { cause?: unknown }).cause = options.cause;
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

/** The on-disk log is not one this version can read (bad JSON, unknown format version). */
export class KbCorruptError extends KbError {
  constructor(message: string) {
    super('corrupt', message);
  }
}

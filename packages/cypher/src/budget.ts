// The budgets one query runs under, enforced where values and rows are produced rather than after: a list
// longer than max_list_size is refused before it is built (range() computes its length first), a string
// longer than max_string_length before it is joined, and what the query holds at once (lists it builds, the
// rows that ORDER BY, DISTINCT, aggregation, UNION, a write clause or the result keep) is counted against
// max_memory_bytes as an estimate of its bytes. The deadline is checked cooperatively: every loop that can
// run long ticks, and every 1,024 ticks the clock is read.
import { equivalenceKey } from './compare.js';
import { CypherLimitError } from './errors.js';
import { GraphNode, GraphRelationship, isMap, MAX_VALUE_DEPTH, PathValue, type Value } from './values.js';

export interface Budgets {
  /** Stop the query after this many milliseconds (`cypher_timeout`). Default: no deadline. */
  timeoutMs?: number;
  /** Refuse the result's row `maxRows + 1` as it is produced (`cypher_too_many_rows`). Default: no limit. */
  maxRows?: number;
  /** Elements of one list the query builds (`cypher_list_too_large`). Default 1,000,000. */
  maxListSize?: number;
  /** Characters of one string the query builds (`cypher_string_too_long`). Default 1,000,000. */
  maxStringLength?: number;
  /**
   * Estimated bytes of one value the query builds, and of everything it holds at once: rows kept by ORDER BY,
   * DISTINCT, aggregation, UNION, a write clause and the result (`cypher_memory_exceeded`). Default 256 MiB.
   */
  maxMemoryBytes?: number;
}

export const DEFAULT_BUDGETS = {
  maxListSize: 1_000_000,
  maxStringLength: 1_000_000,
  maxMemoryBytes: 256 * 1024 * 1024,
} as const;

export { MAX_VALUE_DEPTH };

const CHECK_EVERY = 1024;

interface Measure {
  bytes: number;
  depth: number;
}

// Sizes of lists and maps, measured once: values are never changed after they are built. Small, shallow ones
// are measured again when asked (cheaper than a WeakMap entry for every list literal of every row).
const measured = new WeakMap<object, Measure>();
const worthKeeping = (bytes: number, depth: number) => bytes >= 1024 || depth >= 8;

export class Budget {
  readonly timeoutMs: number | undefined;
  readonly maxRows: number;
  readonly maxListSize: number;
  readonly maxStringLength: number;
  readonly maxMemoryBytes: number;
  private readonly deadline: number;
  private ticks = 0;
  private nextCheck = CHECK_EVERY;
  private held = 0;

  constructor(b: Budgets = {}) {
    this.timeoutMs = b.timeoutMs;
    this.maxRows = b.maxRows ?? Number.POSITIVE_INFINITY;
    this.maxListSize = b.maxListSize ?? DEFAULT_BUDGETS.maxListSize;
    this.maxStringLength = b.maxStringLength ?? DEFAULT_BUDGETS.maxStringLength;
    this.maxMemoryBytes = b.maxMemoryBytes ?? DEFAULT_BUDGETS.maxMemoryBytes;
    this.deadline = b.timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + b.timeoutMs;
  }

  /** `units` of work done; past the deadline this throws `cypher_timeout`. */
  tick(units = 1): void {
    this.ticks += units;
    if (this.ticks < this.nextCheck) return;
    this.nextCheck = this.ticks + CHECK_EVERY;
    if (Date.now() > this.deadline) {
      throw new CypherLimitError(
        'cypher_timeout',
        'timeout_ms',
        this.timeoutMs!,
        `the query ran past its timeout_ms budget of ${this.timeoutMs} ms`,
      );
    }
  }

  /** A list of `length` elements is about to be built by `what` (checked before allocating). */
  // Deliberate likeness: one check per limit (list, string), each with its own code and message.
  list(length: number, what: string): void {
    if (length > this.maxListSize) {
      throw new CypherLimitError(
        'cypher_list_too_large',
        'max_list_size',
        this.maxListSize,
        `${what} would build a list of ${length} elements, more than max_list_size ${this.maxListSize}`,
      );
    }
  }

  /** A string of `length` characters is about to be built by `what`. */
  // Deliberate likeness: as list above, for strings.
  string(length: number, what: string): void {
    if (length > this.maxStringLength) {
      throw new CypherLimitError(
        'cypher_string_too_long',
        'max_string_length',
        this.maxStringLength,
        `${what} would build a string of ${length} characters, more than max_string_length ${this.maxStringLength}`,
      );
    }
  }

  /** One value of about `bytes`, nested `depth` deep, built by `what`. */
  value(bytes: number, depth: number, what: string): void {
    if (bytes > this.maxMemoryBytes) throw this.memoryError(`${what} would build a value of about ${mb(bytes)}`);
    if (depth > MAX_VALUE_DEPTH) {
      throw new CypherLimitError(
        'cypher_value_too_deep',
        'max_value_depth',
        MAX_VALUE_DEPTH,
        `${what} would build a value nested deeper than max_value_depth ${MAX_VALUE_DEPTH} levels`,
      );
    }
  }

  /** `bytes` more held at once by `what` (a sort, a DISTINCT, groups, the result…); `release` gives them back. */
  hold(bytes: number, what: string): void {
    this.held += bytes;
    if (this.held > this.maxMemoryBytes) {
      throw this.memoryError(`${what} would hold about ${mb(this.held)} with what the query already holds`);
    }
  }

  release(bytes: number): void {
    this.held -= bytes;
  }

  private memoryError(what: string): CypherLimitError {
    return new CypherLimitError(
      'cypher_memory_exceeded',
      'max_memory_bytes',
      this.maxMemoryBytes,
      `${what}, more than max_memory_bytes ${this.maxMemoryBytes} (${mb(this.maxMemoryBytes)})`,
    );
  }
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** A list or map the engine built, with its measure known: later checks read it instead of walking it. */
export function remember<T extends object>(v: T, bytes: number, depth: number): T {
  if (worthKeeping(bytes, depth)) measured.set(v, { bytes, depth });
  return v;
}

/** measure(v).bytes, without a Measure object for a scalar (a result row's cells are mostly scalars). */
export function valueBytes(v: Value): number {
  if (typeof v === 'string') return 24 + 2 * v.length;
  if (typeof v === 'number') return 16;
  if (typeof v === 'bigint') return 32;
  if (v === null || typeof v === 'boolean') return 8;
  return measure(v).bytes;
}

/** Estimated bytes of a value (an element slot included), and how deep it nests. */
export function measure(v: Value): Measure {
  if (v === null || typeof v === 'boolean') return { bytes: 8, depth: 0 };
  if (typeof v === 'number') return { bytes: 16, depth: 0 };
  if (typeof v === 'bigint') return { bytes: 32, depth: 0 };
  if (typeof v === 'string') return { bytes: 24 + 2 * v.length, depth: 0 };
  // Nodes and relationships belong to the graph; a reference and a share of the object.
  if (v instanceof GraphNode || v instanceof GraphRelationship) return { bytes: 64, depth: 0 };
  if (v instanceof PathValue) return { bytes: 48 + 16 * (v.nodes.length + v.rels.length), depth: 1 };
  if (!Array.isArray(v) && !isMap(v)) return { bytes: 64, depth: 0 };
  const known = measured.get(v);
  if (known) return known;
  // A value from the caller (a parameter) or the graph, nested at most MAX_VALUE_DEPTH deep (fromJs checks).
  let bytes = 32;
  let depth = 0;
  for (const [k, x] of Array.isArray(v) ? v.entries() : Object.entries(v)) {
    const m = measure(x);
    bytes += m.bytes + (typeof k === 'string' ? 24 + 2 * k.length : 0);
    if (m.depth > depth) depth = m.depth;
  }
  const m = { bytes, depth: depth + 1 };
  if (worthKeeping(m.bytes, m.depth)) measured.set(v, m);
  return m;
}

/**
 * Builds a list element by element under the budgets: length, bytes and depth are checked as it grows, so a
 * comprehension or a collect stops at the element that passes a limit, not after.
 */
export class ListBuilder {
  readonly items: Value[] = [];
  private bytes = 32;
  private depth = 0;

  constructor(
    private readonly budget: Budget,
    private readonly what: string,
  ) {}

  push(v: Value): void {
    const b = this.budget;
    b.tick();
    if (this.items.length >= b.maxListSize) b.list(this.items.length + 1, this.what);
    // A scalar is sized without a Measure object: collect() pushes millions of them.
    if (v === null || typeof v !== 'object') {
      this.bytes += valueBytes(v);
      if (this.depth === 0) this.depth = 1;
    } else {
      const m = measure(v);
      this.bytes += m.bytes;
      if (m.depth >= this.depth) this.depth = m.depth + 1;
    }
    if (this.bytes > b.maxMemoryBytes || this.depth > MAX_VALUE_DEPTH) b.value(this.bytes, this.depth, this.what);
    this.items.push(v);
  }

  /** Estimated bytes so far. */
  get size(): number {
    return this.bytes;
  }

  done(): Value[] {
    return remember(this.items, this.bytes, this.depth || 1);
  }
}

/** Estimated bytes of a row of bindings, as held by a buffer. */
export function rowBytes(row: Readonly<Record<string, Value>>): number {
  let bytes = 64;
  for (const [k, v] of Object.entries(row)) bytes += 16 + 2 * k.length + measure(v).bytes;
  return bytes;
}

/** What one buffer holds (a sort, a DISTINCT, groups, a write's input, the result), given back at its end. */
export class Held {
  private bytes = 0;

  constructor(
    private readonly budget: Budget,
    private readonly what: string,
  ) {}

  add(bytes: number): void {
    this.bytes += bytes;
    this.budget.hold(bytes, this.what);
  }

  release(): void {
    this.budget.release(this.bytes);
    this.bytes = 0;
  }
}

/** The first item of each distinct `key` (DISTINCT, UNION), in order: the keys seen are held against the budget. */
export function* firstOfEach<T>(
  items: Iterable<T>,
  key: (item: T) => Value,
  budget: Budget,
  what: string,
): Generator<T> {
  const seen = new Set<string>();
  const held = new Held(budget, what);
  try {
    for (const item of items) {
      const k = equivalenceKey(key(item));
      if (seen.has(k)) continue;
      seen.add(k);
      held.add(48 + 2 * k.length);
      yield item;
    }
  } finally {
    held.release();
  }
}

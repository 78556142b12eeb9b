// A large JSON body checked while it streams in, on the event loop, without decoding it: the structure of the
// top-level object is followed byte by byte (strings are skipped with Buffer#indexOf, which is native), and a
// field is refused as soon as its JSON text is larger than any valid value could be (body-bounds.ts), a body
// that is not an object at its first byte. The full parse and schema check happen later on a thread; the scan
// only refuses what that check would refuse anyway, early, so a 95 MB array never reaches memory whole.
//
// Written by hand: the streaming JSON tokenizers on npm (@streamparser/json, stream-json) decode every string
// token into a JavaScript string on the calling thread (a 50 MB base64 matrix, again), and emit a token per
// value; this scan allocates nothing per byte and leaves all decoding to the thread.
import { InvalidParametersError, pointer } from '@evident/contract';
import { invalidJson } from '../errors.js';
import type { BodyBounds, JsonType } from './body-bounds.js';

enum Phase {
  Start,
  KeyOrEnd,
  Key,
  Colon,
  ValueStart,
  Value,
  AfterValue,
  /** The top-level object ended, or the text took a turn the scan does not follow: the full check decides. */
  Stop,
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const MAX_KEY_BYTES = 1024;

function typeAt(c: number): JsonType | undefined {
  if (c === QUOTE) return 'string';
  if (c === 0x7b) return 'object';
  if (c === 0x5b) return 'array';
  if (c === 0x74 || c === 0x66) return 'boolean';
  if (c === 0x6e) return 'null';
  if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return 'number';
  return undefined;
}

const expected = (types: string[]) =>
  types.length === 1 ? `Expected ${types[0]}` : `Expected ${types.slice(0, -1).join(', ')} or ${types.at(-1)}`;

export class BodyScanner {
  private phase = Phase.Start;
  private keyParts: Buffer[] = [];
  private keyBytes = 0;
  private key = '';
  /** Inside a string; the previous byte was a backslash (at a chunk's end). */
  private inString = false;
  private escaped = false;
  private depth = 0;
  private size = 0;
  private bound = Number.POSITIVE_INFINITY;
  private boundProblem = '';
  // The next backslash of the current chunk at or after `bsFrom` (-1: none), so a chunk is searched once.
  private bsChunk: Buffer | undefined;
  private bsFrom = 0;
  private bsAt = -1;

  constructor(
    private readonly bounds: BodyBounds,
    /** A value of a type its field never takes, or a field the schema does not know, may be this large. */
    private readonly strayBytes: number,
  ) {}

  /** Feeds the next chunk; returns the refusal when the body can already be refused, else undefined. */
  write(b: Buffer): Error | undefined {
    let i = 0;
    const n = b.length;
    while (i < n) {
      switch (this.phase) {
        case Phase.Stop:
          return undefined;
        case Phase.Start: {
          const c = b[i]!;
          // Whitespace and a UTF-8 byte-order mark may precede the value.
          if (isSpace(c) || (i < 3 && (c === 0xef || c === 0xbb || c === 0xbf))) {
            i++;
            break;
          }
          if (c === 0x7b) {
            this.phase = this.bounds.object ? Phase.KeyOrEnd : Phase.Stop;
            i++;
            break;
          }
          if (typeAt(c) === undefined) return invalidJson();
          if (this.bounds.object) return new InvalidParametersError([{ path: '', message: 'Expected object' }]);
          // No body schema (an unknown route): nothing to follow; the route decides.
          this.phase = Phase.Stop;
          return undefined;
        }
        case Phase.KeyOrEnd: {
          const c = b[i]!;
          if (isSpace(c)) i++;
          else if (c === QUOTE) {
            this.phase = Phase.Key;
            this.keyParts = [];
            this.keyBytes = 0;
            i++;
          } else this.phase = Phase.Stop;
          break;
        }
        case Phase.Key: {
          const end = this.skipString(b, i);
          const stop = this.inString ? n : end - 1;
          if (this.keyBytes < MAX_KEY_BYTES && stop > i) {
            const part = b.subarray(i, Math.min(stop, i + MAX_KEY_BYTES - this.keyBytes));
            this.keyParts.push(Buffer.from(part));
            this.keyBytes += part.length;
          }
          i = end;
          if (!this.inString) {
            this.key = decodeKey(Buffer.concat(this.keyParts));
            this.phase = Phase.Colon;
          }
          break;
        }
        case Phase.Colon: {
          const c = b[i]!;
          if (isSpace(c)) i++;
          else if (c === 0x3a) {
            this.phase = Phase.ValueStart;
            i++;
          } else this.phase = Phase.Stop;
          break;
        }
        case Phase.ValueStart: {
          const c = b[i]!;
          if (isSpace(c)) {
            i++;
            break;
          }
          const type = typeAt(c);
          if (type === undefined) {
            this.phase = Phase.Stop;
            break;
          }
          this.startValue(type);
          this.phase = Phase.Value;
          break;
        }
        case Phase.Value: {
          i = this.value(b, i);
          if (this.size > this.bound) {
            this.phase = Phase.Stop;
            return new InvalidParametersError([{ path: pointer(this.key), message: this.boundProblem }]);
          }
          break;
        }
        case Phase.AfterValue: {
          const c = b[i]!;
          if (isSpace(c)) i++;
          else if (c === 0x2c) {
            this.phase = Phase.KeyOrEnd;
            i++;
          } else this.phase = Phase.Stop; // the closing brace, or text JSON.parse will refuse
          break;
        }
      }
    }
    return undefined;
  }

  private startValue(type: JsonType): void {
    this.size = 0;
    this.depth = 0;
    const field = this.bounds.fields.get(this.key);
    if (!field) {
      this.bound = this.bounds.openFields ? Number.POSITIVE_INFINITY : this.strayBytes;
      this.boundProblem = 'is not a known field';
      return;
    }
    const b = field[type];
    if (b === undefined) {
      this.bound = this.strayBytes;
      this.boundProblem = expected(Object.keys(field));
    } else {
      this.bound = b;
      this.boundProblem = `is larger than any valid value (more than ${b} bytes of JSON)`;
    }
  }

  /** Consumes the current field's value from `i`; counts its bytes (not whitespace between tokens). */
  private value(b: Buffer, i: number): number {
    const n = b.length;
    while (i < n) {
      if (this.inString) {
        const end = this.skipString(b, i);
        this.size += end - i;
        i = end;
        if (!this.inString && this.depth === 0) return this.endValue(i);
        if (this.size > this.bound) return i;
        continue;
      }
      const c = b[i]!;
      if (isSpace(c)) {
        i++;
        continue;
      }
      if (c === 0x2c || c === 0x7d || c === 0x5d) {
        // A comma or a closing bracket at depth 0 ends a number or literal; the object's own brace is not ours.
        if (this.depth === 0) return this.endValue(i);
        if (c !== 0x2c) this.depth--;
        this.size++;
        i++;
        if (this.depth === 0 && c !== 0x2c) return this.endValue(i);
        continue;
      }
      if (c === QUOTE) this.inString = true;
      else if (c === 0x7b || c === 0x5b) this.depth++;
      this.size++;
      i++;
      if (this.size > this.bound) return i;
    }
    return i;
  }

  private endValue(i: number): number {
    this.phase = Phase.AfterValue;
    return i;
  }

  /** From inside a string at `i`: the index after its closing quote (inString cleared), or b.length. */
  private skipString(b: Buffer, i: number): number {
    this.inString = true;
    const n = b.length;
    while (i < n) {
      if (this.escaped) {
        this.escaped = false;
        i++;
        continue;
      }
      const q = b.indexOf(QUOTE, i);
      const bs = this.nextBackslash(b, i);
      if (bs !== -1 && (q === -1 || bs < q)) {
        this.escaped = true;
        i = bs + 1;
        continue;
      }
      if (q === -1) return n;
      this.inString = false;
      return q + 1;
    }
    return n;
  }

  private nextBackslash(b: Buffer, i: number): number {
    if (b !== this.bsChunk || i < this.bsFrom || (this.bsAt !== -1 && this.bsAt < i)) {
      this.bsChunk = b;
      this.bsFrom = i;
      this.bsAt = b.indexOf(BACKSLASH, i);
    }
    return this.bsAt;
  }
}

/** A key's text (escapes decoded); a key that is not valid JSON text is kept raw (the full parse refuses it). */
function decodeKey(raw: Buffer): string {
  const text = raw.toString('utf8');
  try {
    return JSON.parse(`"${text}"`) as string;
  } catch {
    return text;
  }
}

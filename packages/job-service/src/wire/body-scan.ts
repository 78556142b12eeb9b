// A large JSON body checked while it streams in, on the event loop, without decoding it: the structure of the
// top-level object, and of every member object whose schema lists its fields (`options`, `constraints`, …), is
// followed byte by byte (strings are skipped with Buffer#indexOf, which is native), and a member is refused as soon
// as its JSON text is larger than any valid value could be (body-bounds.ts), an object of a closed schema as soon
// as it holds more unknown members than the full check would name, a body that is not an object at its first
// byte. The full parse and schema check happen later on a thread; the scan only refuses what that check would
// refuse anyway, early, so a 95 MB array or an object of millions of keys never reaches memory whole.
//
// Written by hand: the streaming JSON tokenizers on npm (@streamparser/json, stream-json) decode every string
// token into a JavaScript string on the calling thread (a 50 MB base64 matrix, again), and emit a token per
// value; this scan allocates nothing per byte and leaves all decoding to the thread. Its cost is linear in the
// body whatever it holds (escapes included): each byte is looked at a bounded number of times.
import { InvalidParametersError, pointer, type Problem } from '@evident/contract';
import { invalidJson } from '../errors.js';
import type { BodyBounds, JsonType } from './body-bounds.js';
import { MAX_OBJECT_MEMBERS, tooManyMembers } from './json-shape.js';

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
/**
 * Unknown members one object may have before the scan refuses it, naming them: as many problems as the full
 * check lists (validation.ts), so an object of millions of unknown keys is refused while it arrives.
 */
export const MAX_UNKNOWN_MEMBERS = 100;

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

/** An object being followed, and its member being read. */
interface Frame {
  bounds: BodyBounds;
  /** JSON pointer of the object. */
  path: string;
  key: string;
  /** The member's value is being read (or an object inside it is being followed). */
  open: boolean;
  /** `consumed` before the member's first byte; its bound and the problem past it. */
  start: number;
  bound: number;
  problem: string;
  /** Members a closed object does not know, in order (at most MAX_UNKNOWN_MEMBERS + 1). */
  unknown: string[];
  /** Members so far, repeated keys included (json-shape.ts: MAX_OBJECT_MEMBERS). */
  members: number;
}

/** The next occurrence of one byte in the current chunk, searched once per chunk and position (natively). */
class NextByte {
  private chunk: Buffer | undefined;
  private from = 0;
  private at = -1;

  constructor(private readonly byte: number) {}

  find(b: Buffer, i: number): number {
    if (b !== this.chunk || i < this.from || (this.at !== -1 && this.at < i)) {
      this.chunk = b;
      this.from = i;
      this.at = b.indexOf(this.byte, i);
    }
    return this.at;
  }
}

export class BodyScanner {
  private phase = Phase.Start;
  private readonly frames: Frame[] = [];
  private readonly keyBuf = Buffer.allocUnsafe(MAX_KEY_BYTES);
  private keyBytes = 0;
  /** Inside a string; the previous byte was a backslash (at a chunk's end). */
  private inString = false;
  private escaped = false;
  /** Brackets open inside the member value being skipped. */
  private depth = 0;
  /** Bytes of JSON read so far, whitespace between tokens not counted: what members are measured by. */
  private consumed = 0;
  /** `consumed` past which the first open member is over its bound. */
  private limit = Number.POSITIVE_INFINITY;
  private readonly quotes = new NextByte(QUOTE);
  private readonly backslashes = new NextByte(BACKSLASH);

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
            i++;
            if (!this.bounds.object) this.phase = Phase.Stop;
            else this.enter(this.bounds, '');
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
            this.keyBytes = 0;
            i = this.pass(i, Phase.Key);
          } else i = this.closeOrStop(c, i);
          break;
        }
        case Phase.Key: {
          const end = this.skipString(b, i);
          const stop = this.inString ? n : end - 1;
          if (this.keyBytes < MAX_KEY_BYTES && stop > i) {
            this.keyBytes += b.copy(this.keyBuf, this.keyBytes, i, Math.min(stop, i + MAX_KEY_BYTES - this.keyBytes));
          }
          this.consumed += end - i;
          i = end;
          if (!this.inString) {
            const refused = this.keyRead(decodeKey(this.keyBuf, this.keyBytes));
            if (refused) return this.refuse(refused);
            this.phase = Phase.Colon;
          }
          break;
        }
        case Phase.Colon: {
          const c = b[i]!;
          if (isSpace(c)) i++;
          else if (c === 0x3a) i = this.pass(i, Phase.ValueStart);
          else this.phase = Phase.Stop;
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
          const f = this.top();
          const inner = type === 'object' ? f.bounds.objects.get(f.key) : undefined;
          this.startValue(f, type);
          if (inner) {
            // An object whose members the schema lists: followed member by member.
            this.consumed++;
            i++;
            this.enter(inner, f.path + pointer(f.key));
          } else {
            this.depth = 0;
            this.phase = Phase.Value;
          }
          break;
        }
        case Phase.Value:
          i = this.value(b, i);
          break;
        case Phase.AfterValue: {
          const c = b[i]!;
          if (isSpace(c)) i++;
          else if (c === 0x2c) i = this.pass(i, Phase.KeyOrEnd);
          else i = this.closeOrStop(c, i);
          break;
        }
      }
      if (this.consumed > this.limit) return this.refuse(new InvalidParametersError(this.overBound()));
    }
    return undefined;
  }

  /** Past one punctuation byte that counts toward the bound (`"`, `:`, `,`): on to phase `next`. */
  private pass(i: number, next: Phase): number {
    this.phase = next;
    this.consumed++;
    return i + 1;
  }

  /** A `}` that closes a nested object goes back up; anything else (the top-level object's end, or text
   * JSON.parse will refuse) stops the scan. */
  private closeOrStop(c: number, i: number): number {
    if (c === 0x7d && this.frames.length > 1) {
      this.leave();
      return i + 1;
    }
    this.phase = Phase.Stop;
    return i;
  }

  private top(): Frame {
    return this.frames[this.frames.length - 1]!;
  }

  /** After an object's opening brace (counted by the caller). */
  private enter(bounds: BodyBounds, path: string): void {
    this.frames.push({ bounds, path, key: '', open: false, start: 0, bound: 0, problem: '', unknown: [], members: 0 });
    this.phase = Phase.KeyOrEnd;
  }

  /** After a followed member object's closing brace: the parent's member value has ended. */
  private leave(): void {
    this.consumed++;
    this.frames.pop();
    this.endValue();
  }

  /**
   * A member's key has been read: an object of a closed schema counts the members it does not know, and every
   * object followed counts its members against the limit the full parse applies (json-shape.ts).
   */
  private keyRead(key: string): Error | undefined {
    const f = this.top();
    f.key = key;
    if (!f.bounds.openFields && !f.bounds.fields.has(key)) {
      f.unknown.push(key);
      if (f.unknown.length > MAX_UNKNOWN_MEMBERS) {
        return new InvalidParametersError(
          f.unknown
            .slice(0, MAX_UNKNOWN_MEMBERS)
            .map((k) => ({ path: f.path + pointer(k), message: 'is not a known field' })),
        );
      }
    }
    if (++f.members > MAX_OBJECT_MEMBERS) return tooManyMembers(f.path);
    return undefined;
  }

  private startValue(f: Frame, type: JsonType): void {
    f.open = true;
    f.start = this.consumed;
    const field = f.bounds.fields.get(f.key);
    if (!field) {
      f.bound = f.bounds.openFields ? Number.POSITIVE_INFINITY : this.strayBytes;
      f.problem = 'is not a known field';
    } else {
      const b = field[type];
      if (b === undefined) {
        f.bound = this.strayBytes;
        f.problem = expected(Object.keys(field));
      } else {
        f.bound = b;
        f.problem = `is larger than any valid value (more than ${b} bytes of JSON)`;
      }
    }
    this.setLimit();
  }

  private endValue(): void {
    // A value that ended past its bound stays open: the check after this step refuses it.
    if (this.consumed > this.limit) return;
    this.top().open = false;
    this.phase = Phase.AfterValue;
    this.setLimit();
  }

  private setLimit(): void {
    let limit = Number.POSITIVE_INFINITY;
    for (const f of this.frames) if (f.open) limit = Math.min(limit, f.start + f.bound);
    this.limit = limit;
  }

  /** The member that went over its bound first. */
  private overBound(): Problem[] {
    let first: Frame | undefined;
    for (const f of this.frames) if (f.open && (!first || f.start + f.bound < first.start + first.bound)) first = f;
    return [{ path: first!.path + pointer(first!.key), message: first!.problem }];
  }

  private refuse(e: Error): Error {
    this.phase = Phase.Stop;
    return e;
  }

  /** Skips the current member's value from `i`; counts its bytes (not whitespace between tokens). */
  private value(b: Buffer, i: number): number {
    const n = b.length;
    while (i < n) {
      if (this.inString) {
        const end = this.skipString(b, i);
        this.consumed += end - i;
        i = end;
        if (!this.inString && this.depth === 0) {
          this.endValue();
          return i;
        }
        if (this.consumed > this.limit) return i;
        continue;
      }
      const c = b[i]!;
      if (isSpace(c)) {
        i++;
        continue;
      }
      if (c === 0x2c || c === 0x7d || c === 0x5d) {
        // A comma or a closing bracket at depth 0 ends a number or literal; the object's own brace is not ours.
        if (this.depth === 0) {
          this.endValue();
          return i;
        }
        if (c !== 0x2c) this.depth--;
        this.consumed++;
        i++;
        if (this.depth === 0 && c !== 0x2c) {
          this.endValue();
          return i;
        }
        continue;
      }
      if (c === QUOTE) this.inString = true;
      else if (c === 0x7b || c === 0x5b) this.depth++;
      this.consumed++;
      i++;
      if (this.consumed > this.limit) return i;
    }
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
      // Both searches are remembered for the chunk: a string of many escapes costs a short search per escape,
      // never a search to the closing quote per escape.
      const q = this.quotes.find(b, i);
      const bs = this.backslashes.find(b, i);
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
}

/** A key's text (escapes decoded); a key that is not valid JSON text is kept raw (the full parse refuses it). */
function decodeKey(buf: Buffer, length: number): string {
  const text = buf.toString('utf8', 0, length);
  const bs = buf.indexOf(BACKSLASH);
  if (bs === -1 || bs >= length) return text;
  try {
    return JSON.parse(`"${text}"`) as string;
  } catch {
    return text;
  }
}

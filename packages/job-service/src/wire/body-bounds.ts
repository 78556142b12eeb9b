// The largest JSON text a valid value of a schema can be, per top-level field and per JSON type: what a large
// body is held against while it streams in (body-scan.ts). A bound is never below what a valid value needs, so
// a body refused on a bound would have been refused by the full check too.
import type { TSchema } from '@sinclair/typebox';

export type JsonType = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';

/**
 * Characters a number literal may have. JSON allows any length, but no double needs more than 17 significant
 * digits and an exponent; a longer literal is refused as too large (a documented limit of the API).
 */
export const NUMBER_BYTES = 400;

/** Bytes of JSON (whitespace between tokens not counted) a valid value may take, for each type it may have. */
export type TypeBounds = Partial<Record<JsonType, number>>;

export interface BodyBounds {
  /** The body itself must be an object (it always is for submissions). */
  object: boolean;
  fields: Map<string, TypeBounds>;
  /** Fields outside `fields` are allowed (additionalProperties is not false): no bound applies to them. */
  openFields: boolean;
  /** Fields whose value is an object with a closed list of fields of its own: the scan follows their members too. */
  objects: Map<string, BodyBounds>;
}

interface Schema {
  type?: string | string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  maxLength?: number;
  maxItems?: number;
  items?: Schema | Schema[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  patternProperties?: Record<string, Schema>;
  const?: unknown;
  enum?: unknown[];
}

// Every character of a string can take six bytes as a \uXXXX escape, and a key's quotes, colon and comma count.
const stringBytes = (chars: number) => 6 * chars + 2;

function typesOf(s: Schema): JsonType[] {
  if (s.const !== undefined) return [jsonTypeOf(s.const)];
  if (s.enum) return [...new Set(s.enum.map(jsonTypeOf))];
  const t = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  return t.map((x) => (x === 'integer' ? 'number' : (x as JsonType)));
}

function jsonTypeOf(v: unknown): JsonType {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  const t = typeof v;
  return t === 'string' || t === 'number' || t === 'boolean' ? t : 'object';
}

/** The bound of each JSON type a valid value of `s` may have; a type absent from the result is never valid. */
export function typeBounds(s: Schema): TypeBounds {
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) {
    const out: TypeBounds = {};
    for (const a of alternatives) {
      for (const [t, b] of Object.entries(typeBounds(a)) as Array<[JsonType, number]>)
        out[t] = Math.max(out[t] ?? 0, b);
    }
    return out;
  }
  const types = typesOf(s);
  // No type stated: anything goes, unbounded.
  if (!types.length) return Object.fromEntries(ALL_TYPES.map((t) => [t, Number.POSITIVE_INFINITY]));
  const out: TypeBounds = {};
  for (const t of types) out[t] = bytesOf(s, t);
  return out;
}

const ALL_TYPES: JsonType[] = ['object', 'array', 'string', 'number', 'boolean', 'null'];

const maxOf = (s: Schema) => Math.max(0, ...Object.values(typeBounds(s)));

function bytesOf(s: Schema, t: JsonType): number {
  switch (t) {
    case 'string':
      if (s.const !== undefined || s.enum) {
        const values = s.const !== undefined ? [s.const] : s.enum!;
        return Math.max(...values.filter((v) => typeof v === 'string').map((v) => stringBytes((v as string).length)));
      }
      return s.maxLength === undefined ? Number.POSITIVE_INFINITY : stringBytes(s.maxLength);
    case 'number':
      return NUMBER_BYTES;
    case 'boolean':
      return 5;
    case 'null':
      return 4;
    case 'array': {
      if (s.maxItems === undefined) return Number.POSITIVE_INFINITY;
      const items = Array.isArray(s.items) ? s.items : s.items ? [s.items] : [];
      const item = items.length ? Math.max(...items.map(maxOf)) : Number.POSITIVE_INFINITY;
      return 2 + s.maxItems * (item + 1);
    }
    case 'object': {
      if (s.additionalProperties !== false || s.patternProperties) return Number.POSITIVE_INFINITY;
      let total = 2;
      for (const [k, p] of Object.entries(s.properties ?? {})) total += stringBytes(k.length) + 2 + maxOf(p);
      return total;
    }
  }
}

const cache = new WeakMap<object, BodyBounds>();

/** The bounds of a route's body schema (computed once per schema). */
export function bodyBounds(schema: TSchema): BodyBounds {
  let b = cache.get(schema);
  if (!b) {
    b = boundsOf(schema as Schema);
    cache.set(schema, b);
  }
  return b;
}

function boundsOf(s: Schema): BodyBounds {
  const properties = Object.entries(s.properties ?? {});
  const fields = new Map(properties.map(([k, p]) => [k, typeBounds(p)]));
  const objects = new Map<string, BodyBounds>();
  for (const [k, p] of properties) {
    // Only a plain closed object (no alternatives): the scan then knows every member a valid value may have.
    if (p.anyOf || p.oneOf || p.patternProperties || p.additionalProperties !== false) continue;
    const types = typesOf(p);
    if (types.length === 1 && types[0] === 'object') objects.set(k, boundsOf(p));
  }
  return { object: typesOf(s).includes('object'), fields, openFields: s.additionalProperties !== false, objects };
}

// What one KB operation is, once for both servers: its MCP tool name, its REST method and path, one input schema
// (the MCP tool's arguments; on REST the path's parameters, then the query string for GET or the body for POST),
// its output schema, its defaults (the schemas' `default`s, filled in by both validators), and the library call.
// The REST routes (rest.ts), the MCP tools (mcp.ts) and with the routes the OpenAPI document are made from these.
import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import type { KbDB, KbReader } from '@evident/kb';
import { viewAt } from '../surface/calls.js';

/** The library methods an operation may name: the base's, which include every read of a view. */
export type LibraryMethod = {
  [K in keyof KbDB]: KbDB[K] extends (...args: never[]) => unknown ? K : never;
}[keyof KbDB];

/** What a REST route answers other than its body as it is (POST /claims: the stored claim, 201 or 200). */
export interface RestAnswer {
  status: number;
  body: unknown;
}

export interface RestForm {
  method: 'GET' | 'POST';
  /** Fastify's form, each `:name` an input field of the operation (e.g. `/entities/:entity/claims`). */
  path: string;
  /** The OpenAPI tag. */
  tag: string;
  /** Error statuses beyond 400, 401 and 500 that the route documents. */
  errors?: readonly number[];
  /** Response schemas by status, in place of `200: output` (with `answer`). */
  responses?: Readonly<Record<number, TSchema>>;
  /** The REST form of the operation's answer, where it is not the answer itself. */
  answer?: (out: never) => RestAnswer;
  /** Its JSON body is parsed in an event-loop turn of its own (large bodies: long-calls.ts). */
  ownTurn?: boolean;
  /**
   * Heavy work on the console's thread: the call runs on the console's one lane (console/heavy-lane.ts), one such
   * call at a time; `most` bounds the calls of this operation running or waiting there.
   */
  heavy?: { most?: number };
}

/** What the call does to the base: read it, add to it, or take from it (MCP's annotations follow). */
export type Effect = 'read' | 'write' | 'destructive';

export interface Operation {
  /** The MCP tool's name, and the OpenAPI operationId. */
  name: string;
  /** A short title (MCP's `title`, the REST summary). */
  title: string;
  /** What it does and answers, for an agent or a reader of the API docs. */
  description: string;
  rest: RestForm;
  input: TObject;
  output: TObject;
  effect: Effect;
  /** Whether the same call twice leaves the base as once (MCP's idempotentHint); reads always do. */
  idempotent: boolean;
  /** The library methods the call makes (checked by test/operations.test.ts against a real base). */
  library: readonly LibraryMethod[];
  /** A call that succeeds on the tests' base, shown in the API docs and run on both surfaces by the tests. */
  example: Record<string, unknown>;
  run(db: KbDB, input: Record<string, unknown>): Promise<unknown>;
}

/** A JSON text made elsewhere (the replica thread's Cypher answer): REST sends it as it is, MCP parses it. */
export class RawJson {
  constructor(readonly text: string) {}
}

type Definition<I extends TObject, O extends TObject> = Omit<Operation, 'input' | 'output' | 'run' | 'idempotent'> & {
  input: I;
  output: O;
  idempotent?: boolean;
  run(db: KbDB, input: Static<I>): Promise<Static<O> | RawJson>;
};

/**
 * One operation. `run` gets its input as the schema types it (both surfaces have checked it against the schema),
 * and must answer what the output schema describes: a library answer that lost or retyped a field the schema
 * names fails to compile.
 */
export function operation<I extends TObject, O extends TObject>(def: Definition<I, O>): Operation {
  return { ...def, idempotent: def.idempotent ?? def.effect === 'read' } as Operation;
}

export const AsOf = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'Answer as of this moment (ISO 8601, e.g. "2026-01-31T12:00:00Z"); omit for now',
});

/**
 * A read that answers as of a moment: `as_of` joins its input, and `run` reads the view at that moment (the live
 * base without it).
 */
export function readAt<I extends TObject, O extends TObject>(
  def: Omit<Definition<I, O>, 'run' | 'effect'> & { run(view: KbReader, input: Static<I>): Promise<Static<O>> },
): Operation {
  return {
    ...def,
    // An entity, claim or source it names may be unknown (at that moment).
    rest: { ...def.rest, errors: [...new Set([404, ...(def.rest.errors ?? [])])] },
    effect: 'read',
    idempotent: true,
    input: Type.Object({ ...def.input.properties, as_of: Type.Optional(AsOf) }, strict),
    run: async (db, a) => {
      const { as_of, ...rest } = a as { as_of?: string };
      return def.run(await viewAt(db, as_of), rest as Static<I>);
    },
  };
}

/** Input objects refuse fields they do not name (400 / invalid_parameters naming it). */
export const strict = { additionalProperties: false } as const;
/** Output objects keep fields they do not name: the library's answers may grow, and no surface drops a field. */
export const open = { additionalProperties: true } as const;

/**
 * Compile-time: the wire fields `W` are a valid `L` (the library's parameter) and name no field `L` lacks. Used
 * as `fits<Matches<Static<typeof Input>, Param<'method', n>>>()`; a `false` fails to compile.
 */
export type Matches<W, L> = [W] extends [L] ? ([Exclude<keyof W, keyof L>] extends [never] ? true : false) : false;
/** The library method's parameter at `n`, of its last overload (the options form), without undefined. */
export type Param<M extends LibraryMethod, N extends number> = NonNullable<
  Parameters<Extract<KbDB[M], (...args: never[]) => unknown>>[N]
>;
export const fits = <_ extends true>(): void => undefined;

/** The path's parameter names, in order (`/paths/:from/:to` → from, to). */
export const pathParams = (path: string): string[] => [...path.matchAll(/:([a-z_]+)/g)].map((m) => m[1]!);

/** The input split as the REST route takes it: the path's parameters, and the rest (query string or body). */
export function restParts(op: Operation): { params?: TObject; rest: TObject } {
  const names = new Set(pathParams(op.rest.path));
  const pick = (inPath: boolean) =>
    Object.fromEntries(Object.entries(op.input.properties).filter(([k]) => names.has(k) === inPath));
  return {
    ...(names.size ? { params: Type.Object(pick(true), strict) } : {}),
    rest: Type.Object(pick(false), strict),
  };
}

// A read-only openCypher query over the KB's graph (db.rawQueryJson; the graph model is in kb-core's
// src/cypher/README.md). It runs on the base's replica thread, which also makes its JSON, so the server keeps
// answering meanwhile; past its time budget or its thread's heap cap the thread is stopped and its memory given
// back. Syntax and type errors are 400 with the TCK's error kind in the code, a write clause 400 cypher_read_only,
// past the time budget 408, past the row, list, string or memory budgets 413, and 429 busy (Retry-After) when too
// many queries are waiting. `explain` / `profile` (or the EXPLAIN / PROFILE prefix in the text, as in Neo4j) add
// the plan tree to the answer.
import { type Static, Type } from '@sinclair/typebox';
import type { KbDB } from '@evident/kb';
import { fits, type Matches, operation, type Param, RawJson, strict } from './operation.js';

/** kb-core's PlanDescription (the engine's EXPLAIN / PROFILE tree). */
const PlanTree = Type.Recursive(
  (Self) =>
    Type.Object(
      {
        operator: Type.String(),
        details: Type.String(),
        estimated_rows: Type.Number(),
        rows: Type.Optional(Type.Integer({ description: 'PROFILE only: the rows the operator gave' })),
        time_ms: Type.Optional(
          Type.Number({ description: "PROFILE only: the operator's own time (its inputs' taken off)" }),
        ),
        children: Type.Array(Self),
      },
      { additionalProperties: false },
    ),
  { $id: 'CypherPlan' },
);
// The schema's tree is the library's (a field renamed or retyped on either side fails to compile).
type LibraryPlan = NonNullable<Awaited<ReturnType<KbDB['rawQuery']>>['plan']>;
fits<Matches<Static<typeof PlanTree>, LibraryPlan>>();
fits<Matches<LibraryPlan, Static<typeof PlanTree>>>();

const QueryResult = Type.Object(
  {
    columns: Type.Array(Type.String()),
    rows: Type.Array(Type.Array(Type.Unknown())),
    stats: Type.Object({ rows: Type.Integer(), elapsed_ms: Type.Number() }),
    plan: Type.Optional(PlanTree),
  },
  { additionalProperties: false },
);

/** The library's budgets, as the wire names them. */
const Budgets = Type.Object({
  timeout_ms: Type.Optional(Type.Integer({ minimum: 1, maximum: 120_000, description: 'Default 30 000' })),
  max_rows: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, description: 'Default 10 000' })),
});
fits<Matches<Static<typeof Budgets>, Param<'rawQueryJson', 2>>>();

/**
 * The library's run mode for the fields: `profile` (which wins over `explain`) or `explain`. Passed as an option,
 * not as a prefix to the text, so a syntax error's line and column are those of `cypher` as sent.
 */
export function modeOf(fields: { explain?: boolean; profile?: boolean }): 'explain' | 'profile' | undefined {
  return fields.profile ? 'profile' : fields.explain ? 'explain' : undefined;
}

export const QUERY_OPERATIONS = [
  operation({
    name: 'cypher_query',
    title: 'Run a Cypher query',
    description:
      'Run a read-only openCypher query (nodes: entities, labelled by type; relationships: active facts, typed by predicate) and answer ' +
      '{ columns, rows, stats }, and with explain or profile (or an EXPLAIN / PROFILE prefix) `plan`: the operator tree ' +
      '{ operator, details, estimated_rows, rows?, time_ms?, children }, rows and time per operator for PROFILE. Nodes come back as { kind: "node", id, labels, properties }, relationships as ' +
      '{ kind: "relationship", id, type, start, end, properties }. Past timeout_ms (default 30 000) 408, past max_rows (default 10 000) 413.',
    rest: { method: 'POST', path: '/query', tag: 'query', errors: [408, 413, 429, 503] },
    input: Type.Object(
      {
        cypher: Type.String({ minLength: 1, maxLength: 20_000, description: 'An openCypher read query' }),
        params: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Named parameters ($name)' })),
        ...Budgets.properties,
        explain: Type.Optional(
          Type.Boolean({
            description: 'Plan without running: no rows, the answer carries `plan` (as the EXPLAIN prefix)',
          }),
        ),
        profile: Type.Optional(
          Type.Boolean({
            description:
              'Run and answer `plan` with rows and time per operator (as the PROFILE prefix); wins over explain; a prefix in the text wins over both',
          }),
        ),
      },
      strict,
    ),
    output: QueryResult,
    effect: 'read',
    library: ['rawQueryJson'],
    example: {
      cypher: 'MATCH (d:Drug)-[r]->(t) RETURN d.name AS drug, type(r) AS rel, t.name AS target ORDER BY drug, target',
    },
    // QueryResult's shape, made on the replica thread.
    run: async (db, { cypher, params, explain, profile, ...options }) =>
      new RawJson(await db.rawQueryJson(cypher, params ?? {}, { ...options, mode: modeOf({ explain, profile }) })),
  }),
];

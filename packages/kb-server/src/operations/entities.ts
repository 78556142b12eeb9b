// Operations on entities: search, summary, claims, query frame, paths; and the inquiries between two of them.
import { Type, type Static } from '@sinclair/typebox';
import { KbNotFoundError } from '@evident/kb';
import * as S from '../surface/schemas.js';
import { findPaths, getEntityOrThrow, searchEntities, viewAt } from '../surface/calls.js';
import { AsOf, fits, type Matches, open, operation, type Param, strict } from './operation.js';

export const EntityRef = Type.String({
  minLength: 1,
  maxLength: 1000,
  description:
    'Entity id (e.g. "gene:brca1") or name/alias (e.g. "BRCA1"), URL-encoded in a path; case and spacing do not matter',
});
const Limit = (dflt: number, max: number) => Type.Optional(Type.Integer({ minimum: 1, maximum: max, default: dflt }));
const Offset = Type.Optional(Type.Integer({ minimum: 0, default: 0, description: 'How many to skip (paging)' }));

const ClaimsOptions = Type.Object(
  {
    predicate_type: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Only claims with this predicate (e.g. "targets")' }),
    ),
    status: Type.Optional(
      Type.Union([Type.Literal('active'), Type.Literal('all')], {
        default: 'active',
        description: '"all" includes retracted and degraded claims, for audit',
      }),
    ),
  },
  strict,
);
fits<Matches<Static<typeof ClaimsOptions>, Param<'claimsFor', 1>>>();

const PathOptions = Type.Object(
  {
    max_depth: Type.Optional(Type.Integer({ minimum: 1, maximum: 6, default: 3 })),
    top_k: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 5 })),
  },
  strict,
);
fits<Matches<Static<typeof PathOptions>, Param<'findPaths', 2>>>();

const ListOptions = Type.Object(
  {
    entity_type: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Only entities of this type (e.g. "gene")' }),
    ),
    min_claims: Type.Optional(
      Type.Integer({ minimum: 0, description: 'Only entities with at least this many claims' }),
    ),
    limit: Limit(20, 1000),
    offset: Offset,
  },
  strict,
);
fits<Matches<Static<typeof ListOptions>, Param<'listEntities', 0>>>();

// Deliberate likeness: each operation declares its own fields (the catalogue's one shape), not repeated logic.
export const ENTITY_OPERATIONS = [
  operation({
    name: 'search_entities',
    title: 'Search entities',
    description:
      'Find entities by name, alias or type, best match first (exact name, alias/synonym, prefix, substring), then by meaning ' +
      '(semantic: a drug class, a paraphrase, what the entity relates to; e.g. "PARP inhibitor" finds olaparib), then by type; ties by claim count. ' +
      'Without query: every entity (of entity_type) by claim count. Pages with limit and offset; total counts every hit. ' +
      'Use it to turn a name you were given into the entity id the other tools accept.',
    rest: { method: 'GET', path: '/entities', tag: 'entities' },
    input: Type.Object(
      {
        query: Type.Optional(
          Type.String({
            maxLength: 1000,
            description: 'Name, alias, id fragment or type; omit to list by claim count',
          }),
        ),
        ...ListOptions.properties,
      },
      strict,
    ),
    output: Type.Object({ results: Type.Array(S.SearchHit), total: Type.Integer() }, open),
    effect: 'read',
    library: ['listEntities', 'resolve', 'searchEntities'],
    example: { query: 'brca', limit: 5 },
    run: async (db, { limit, offset, ...o }) => {
      const hits = await searchEntities(db, o);
      const from = offset ?? 0;
      return { results: hits.slice(from, from + (limit ?? 20)), total: hits.length };
    },
  }),
  operation({
    name: 'get_entity',
    title: 'Get an entity',
    description:
      'Summary of one entity: id, name, type, aliases, active claim count, number of distinct sources, claim counts per predicate.',
    rest: { method: 'GET', path: '/entities/:entity', tag: 'entities', errors: [404] },
    input: Type.Object({ entity: EntityRef }, strict),
    output: S.Entity,
    effect: 'read',
    library: ['getEntity'],
    example: { entity: 'BRCA1' },
    run: (db, a) => getEntityOrThrow(db, a.entity),
  }),
  operation({
    name: 'get_claims',
    title: 'Get claims',
    description:
      'The claims that mention an entity, oldest first, each with provenance (source_type, source_id), confidence, status and created_at. ' +
      'Filter by `predicate_type`; `status: "all"` includes retracted and degraded claims for audit. Pages with limit and offset; total counts them all.',
    rest: { method: 'GET', path: '/entities/:entity/claims', tag: 'entities', errors: [404] },
    input: Type.Object(
      { entity: EntityRef, ...ClaimsOptions.properties, limit: Limit(100, 1000), offset: Offset },
      strict,
    ),
    output: Type.Object({ entity: Type.String(), claims: Type.Array(S.Claim), total: Type.Integer() }, open),
    effect: 'read',
    library: ['getEntity', 'claimsFor'],
    example: { entity: 'BRCA1', status: 'all', limit: 2 },
    run: async (db, { entity, limit, offset, ...options }) => {
      const found = await db.getEntity(entity);
      const all = await db.claimsFor(found?.id ?? entity, options);
      // An entity whose claims are all retracted is still known for audit (status: 'all').
      if (!found && all.length === 0) throw new KbNotFoundError('entity', entity);
      const from = offset ?? 0;
      return { entity: found?.id ?? entity, claims: all.slice(from, from + (limit ?? 100)), total: all.length };
    },
  }),
  operation({
    name: 'query_entity',
    title: 'Query an entity',
    description:
      'Everything known about one entity: its direct relationships (predicate, target, combined confidence, supporting claim ids, source count), ' +
      'the entities reached within `depth` hops, and a readable narrative. Pass `as_of` to see the base as it was at that moment.',
    rest: { method: 'GET', path: '/entities/:entity/context', tag: 'entities', errors: [404] },
    input: Type.Object(
      {
        entity: EntityRef,
        depth: Type.Optional(
          Type.Integer({ minimum: 0, maximum: 6, default: 2, description: 'Hops to expand (0..6, default 2)' }),
        ),
        as_of: Type.Optional(AsOf),
      },
      strict,
    ),
    output: S.QueryFrame,
    effect: 'read',
    library: ['query'],
    example: { entity: 'olaparib', depth: 2 },
    run: async (db, a) => (await viewAt(db, a.as_of)).query(a.entity, { depth: a.depth ?? 2 }),
  }),
  operation({
    name: 'find_paths',
    title: 'Find paths',
    description:
      'How two entities are connected: up to `top_k` paths of at most `max_depth` hops, each edge with predicate, direction, claim ids and confidence, ' +
      'and a path score (product of edge confidences; higher is stronger). Answers the ids `from` and `to` resolved to; an empty list means no connection within max_depth, ' +
      'an entity that does not resolve is not_found.',
    rest: { method: 'GET', path: '/paths/:from/:to', tag: 'entities', errors: [404] },
    input: Type.Object({ from: EntityRef, to: EntityRef, ...PathOptions.properties }, strict),
    output: S.PathsResult,
    effect: 'read',
    library: ['getEntity', 'findPaths'],
    example: { from: 'olaparib', to: 'BRCA1', max_depth: 3, top_k: 3 },
    run: (db, a) => findPaths(db, a),
  }),
  operation({
    name: 'add_inquiry',
    title: 'Add an inquiry',
    description:
      'Record an open research question about how two entities relate. The first claim later linking subject and object (fitting predicate_hint, if given) answers it; ' +
      'see open_inquiries.',
    rest: { method: 'POST', path: '/inquiries', tag: 'inquiries' },
    input: Type.Object(
      {
        question: Type.String({ minLength: 1, maxLength: 4000 }),
        subject: Type.String({ minLength: 1, maxLength: 1000, description: 'Entity name or id' }),
        object: Type.String({ minLength: 1, maxLength: 1000, description: 'Entity name or id' }),
        predicate_hint: Type.Optional(Type.String({ maxLength: 200, default: '' })),
      },
      strict,
    ),
    output: S.Inquiry,
    effect: 'write',
    idempotent: false,
    library: ['ingestInquiry'],
    example: { question: 'Does olaparib treat ovarian cancer?', subject: 'olaparib', object: 'ovarian cancer' },
    run: (db, a) => db.ingestInquiry(a.question, a.subject, a.object, a.predicate_hint ?? ''),
  }),
  operation({
    name: 'open_inquiries',
    title: 'Open inquiries',
    description: 'Research questions not answered by any claim yet, oldest first.',
    rest: { method: 'GET', path: '/inquiries', tag: 'inquiries' },
    input: Type.Object({}, strict),
    output: Type.Object({ inquiries: Type.Array(S.Inquiry) }, open),
    effect: 'read',
    library: ['openInquiries'],
    example: {},
    run: async (db) => ({ inquiries: await db.openInquiries() }),
  }),
];

// The reasoning calls (packages/kb/README.md, "Reasoning over evidence"): each one library call, on the live base
// or, with `as_of`, on the view as of that moment. The library checks the arguments and names the field in its
// errors; the schemas here document them and bound their sizes.
import { Type, type Static } from '@sinclair/typebox';
import { KbNotFoundError, type KbReader } from '@evident/kb';
import * as S from '../surface/schemas.js';
import * as R from '../surface/reasoning-schemas.js';
import { toClaimInput } from '../surface/calls.js';
import { fits, type Matches, operation, type Param, readAt, strict } from './operation.js';

/** The most one what-if request names: sources to retract, claims to add. */
const WHAT_IF_MAX_SOURCES = 1000;
const WHAT_IF_MAX_CLAIMS = 10_000;

const Ref = (description: string) => Type.String({ minLength: 1, maxLength: 1000, description });
const Limit = (dflt: number, max: number) => Type.Optional(Type.Integer({ minimum: 1, maximum: max, default: dflt }));
const Entity = Ref('Entity id or name (URL-encoded in a path)');
const Triple = { subject: Ref('Entity'), predicate: Ref('Predicate'), object: Ref('Entity') };

type Audit = Awaited<ReturnType<KbReader['audit']>>;

/** The provenance trail of `ref` when it names a `kind` (claim or entity); not found otherwise. */
async function auditOf<K extends Audit['kind']>(
  v: KbReader,
  ref: string,
  kind: K,
): Promise<Extract<Audit, { kind: K }>> {
  const trail = await v.audit(ref);
  if (trail.kind !== kind) throw new KbNotFoundError(kind, ref);
  return trail as Extract<Audit, { kind: K }>;
}

const DriftOptions = Type.Object(
  {
    since: Type.String({ minLength: 1, maxLength: 64, description: 'ISO 8601' }),
    until: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'ISO 8601; default now' })),
    limit: Limit(100, 100_000),
  },
  strict,
);
fits<Matches<Static<typeof DriftOptions>, Param<'drift', 0>>>();
const StaleOptions = Type.Object(
  { days: Type.Number({ minimum: 0, maximum: 36_500 }), limit: Limit(100, 100_000) },
  strict,
);
fits<Matches<Static<typeof StaleOptions>, Param<'stale', 0>>>();
const ReliabilityOptions = Type.Object(
  {
    by: Type.Optional(Type.Union([Type.Literal('source'), Type.Literal('source_type')], { default: 'source' })),
    limit: Limit(1000, 1_000_000),
  },
  strict,
);
fits<Matches<Static<typeof ReliabilityOptions>, Param<'sourceReliability', 0>>>();
const BlindspotOptions = Type.Object({ min_claims: Limit(5, 1_000_000), limit: Limit(100, 100_000) }, strict);
fits<Matches<Static<typeof BlindspotOptions>, Param<'blindspots', 0>>>();

const WhatIfInput = Type.Object(
  {
    retract_sources: Type.Optional(Type.Array(Ref('Source id'), { maxItems: WHAT_IF_MAX_SOURCES })),
    add_claims: Type.Optional(Type.Array(S.ClaimBody, { maxItems: WHAT_IF_MAX_CLAIMS })),
    hypothesis: Type.Optional(Type.Object(Triple, strict)),
    timeout_ms: Type.Optional(Type.Integer({ minimum: 1, maximum: 120_000, description: 'Default 30 000' })),
  },
  strict,
);

// Deliberate likeness: each operation declares its own fields (the catalogue's one shape), not repeated logic.
export const REASONING_OPERATIONS = [
  readAt({
    name: 'impact',
    title: 'Impact of retracting a source',
    description:
      'What retracting the source (cascade: also degrading what derives from it) would retract, degrade, orphan and weaken; nothing is written.',
    rest: { method: 'GET', path: '/insights/impact/:source_id', tag: 'insights', errors: [404] },
    input: Type.Object(
      { source_id: Ref('Source id'), cascade: Type.Optional(Type.Boolean({ default: true })) },
      strict,
    ),
    output: R.Impact,
    library: ['impact'],
    example: { source_id: 'PMID:1' },
    run: (v, a) => v.impact(a.source_id, { cascade: a.cascade ?? true }),
  }),
  readAt({
    name: 'audit_claim',
    title: "A claim's provenance trail",
    description:
      "A claim's provenance trail: source, derived_from chain, dependants, corroboration, retraction events.",
    rest: { method: 'GET', path: '/claims/:claim_id/audit', tag: 'claims', errors: [404] },
    input: Type.Object({ claim_id: Ref('Claim id') }, strict),
    output: R.ClaimAudit,
    library: ['audit'],
    example: { claim_id: 'clm_0123456789abcdef0123456789abcdef' },
    run: (v, a) => auditOf(v, a.claim_id, 'claim'),
  }),
  readAt({
    name: 'audit_entity',
    title: "An entity's provenance trail",
    description: 'The provenance trail of every claim about an entity, retracted ones included.',
    rest: { method: 'GET', path: '/entities/:entity/audit', tag: 'entities', errors: [404] },
    input: Type.Object({ entity: Entity }, strict),
    output: R.EntityAudit,
    library: ['audit'],
    example: { entity: 'BRCA1' },
    run: (v, a) => auditOf(v, a.entity, 'entity'),
  }),
  readAt({
    name: 'drift',
    title: 'What changed',
    description:
      'What changed in (since, until]: claims added, retracted, degraded; new entities; changed relationships.',
    rest: { method: 'GET', path: '/insights/drift', tag: 'insights' },
    input: DriftOptions,
    output: R.Drift,
    library: ['drift'],
    example: { since: '2000-01-01T00:00:00Z', until: '2100-01-01T00:00:00Z' },
    run: (v, a) => v.drift(a),
  }),
  readAt({
    name: 'fragile',
    title: 'Fragile relationships',
    description: 'Single-source relationships that other claims derive from or many paths pass through.',
    rest: { method: 'GET', path: '/insights/fragile', tag: 'insights' },
    input: Type.Object({ limit: Limit(20, 10_000) }, strict),
    output: R.Fragile,
    library: ['fragile'],
    example: { limit: 5 },
    run: async (v, a) => ({ relationships: await v.fragile(a) }),
  }),
  readAt({
    name: 'stale',
    title: 'Stale relationships',
    description: 'Relationships whose newest active claim is older than `days`.',
    rest: { method: 'GET', path: '/insights/stale', tag: 'insights' },
    input: StaleOptions,
    output: R.Stale,
    library: ['stale'],
    example: { days: 0 },
    run: (v, a) => v.stale(a),
  }),
  readAt({
    name: 'source_reliability',
    title: 'Source reliability',
    description:
      'Per source (or source type): claims, corroborated, retracted, contradicted fractions, reliability score.',
    rest: { method: 'GET', path: '/insights/source-reliability', tag: 'insights' },
    input: ReliabilityOptions,
    output: R.SourceReliability,
    library: ['sourceReliability'],
    example: { by: 'source_type' },
    run: async (v, a) => ({ sources: await v.sourceReliability(a) }),
  }),
  readAt({
    name: 'consensus',
    title: 'Consensus',
    description: 'What sources assert about an entity (or between it and `other`), how many agree, and contradictions.',
    rest: { method: 'GET', path: '/insights/consensus/:entity', tag: 'insights', errors: [404] },
    input: Type.Object({ entity: Entity, other: Type.Optional(Ref('A second entity')) }, strict),
    output: R.Consensus,
    library: ['consensus'],
    example: { entity: 'BRCA1' },
    run: (v, a) => (a.other === undefined ? v.consensus(a.entity) : v.consensus(a.entity, a.other)),
  }),
  readAt({
    name: 'predict',
    title: 'Predicted relationships',
    description: 'Two-hop inferences by the vocabulary table of predicate compositions, not already stated.',
    rest: { method: 'GET', path: '/insights/predict/:entity', tag: 'insights', errors: [404] },
    input: Type.Object({ entity: Entity, top_k: Limit(10, 1000) }, strict),
    output: R.Predictions,
    library: ['predict'],
    example: { entity: 'olaparib' },
    run: async (v, { entity, ...o }) => ({ predictions: await v.predict(entity, o) }),
  }),
  readAt({
    name: 'evolution',
    title: "An entity's evolution",
    description: "An entity's timeline and each relationship's confidence after every change.",
    rest: { method: 'GET', path: '/insights/evolution/:entity', tag: 'insights', errors: [404] },
    input: Type.Object({ entity: Entity }, strict),
    output: R.Evolution,
    library: ['evolution'],
    example: { entity: 'BRCA1' },
    run: (v, a) => v.evolution(a.entity),
  }),
  readAt({
    name: 'blindspots',
    title: 'Blind spots',
    description: 'Thin vocabulary types and predicates, one-predicate entities, one-source-type relationships.',
    rest: { method: 'GET', path: '/insights/blindspots', tag: 'insights' },
    input: BlindspotOptions,
    output: R.Blindspots,
    library: ['blindspots'],
    example: { min_claims: 2 },
    run: (v, a) => v.blindspots(a),
  }),
  readAt({
    name: 'test_hypothesis',
    title: 'Test a hypothesis',
    description: 'Evidence for and against `subject predicate object`, and a verdict.',
    rest: { method: 'GET', path: '/insights/hypothesis', tag: 'insights', errors: [404] },
    input: Type.Object(Triple, strict),
    output: R.HypothesisTest,
    library: ['testHypothesis'],
    example: { subject: 'olaparib', predicate: 'treats', object: 'breast cancer' },
    run: (v, a) => v.testHypothesis(a.subject, a.predicate, a.object),
  }),
  operation({
    name: 'what_if',
    title: 'What if',
    description:
      'The base with sources retracted and claims added, in memory only: counts, health, a hypothesis. ' +
      "Computed on the base's replica thread, so the server keeps answering meanwhile: at most 1000 sources " +
      'and 10,000 claims (400 naming the field past either), stopped past timeout_ms (408 what_if_timeout) or ' +
      "its thread's heap cap (413 what_if_memory_limit); 429 busy (Retry-After) when too many calls are waiting.",
    rest: {
      method: 'POST',
      path: '/insights/what-if',
      tag: 'insights',
      errors: [404, 408, 413, 429, 503],
      ownTurn: true,
      heavy: {},
    },
    input: WhatIfInput,
    output: R.WhatIf,
    effect: 'read',
    library: ['whatIfSummary'],
    example: {
      retract_sources: ['PMID:1'],
      hypothesis: { subject: 'olaparib', predicate: 'treats', object: 'breast cancer' },
    },
    run: (db, b) => {
      const input = {
        ...(b.retract_sources ? { retract_sources: b.retract_sources } : {}),
        ...(b.add_claims ? { add_claims: b.add_claims.map(toClaimInput) } : {}),
        ...(b.hypothesis ? { hypothesis: b.hypothesis } : {}),
      };
      return db.whatIfSummary(input, { off_thread: true, ...(b.timeout_ms ? { timeout_ms: b.timeout_ms } : {}) });
    },
  }),
];

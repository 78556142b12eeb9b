// The library calls behind both surfaces (MCP tools and REST routes), so a request means the same thing
// on either: map wire fields to the library's arguments, call it, return what it returns.
import { KbNotFoundError, KbValidationError } from '@evident/kb';
import type {
  Claim,
  ClaimWarning,
  ClaimInput,
  EntitySummary,
  IngestBatchResult,
  IngestResult,
  KbDB,
  KbReader,
  Path,
  Provenance,
} from '@evident/kb';
import type { ClaimBody } from './schemas.js';
import type { TextIngestBody } from './text-schemas.js';

/**
 * Wire claim -> the library's ClaimInput. source_type and source_id come flat (the wire's form) or inside
 * `provenance` (the library's form); given both ways they must agree. Missing both ways, the library's
 * validation names the field.
 */
export function toClaimInput(b: ClaimBody): ClaimInput {
  const nested = (b.provenance ?? {}) as Record<string, unknown>;
  for (const k of ['source_type', 'source_id'] as const) {
    if (b[k] !== undefined && nested[k] !== undefined && nested[k] !== b[k])
      throw new KbValidationError(
        'conflicting_values',
        k,
        `given as ${JSON.stringify(b[k])} and as provenance.${k} ${JSON.stringify(nested[k])}`,
      );
  }
  const provenance = {
    ...nested,
    source_type: b.source_type ?? nested.source_type,
    source_id: b.source_id ?? nested.source_id,
  } as Provenance;
  if (b.derived_from !== undefined) provenance.derived_from = b.derived_from;
  const input: ClaimInput = {
    subject: b.subject as [string, string],
    predicate: b.predicate as [string, string],
    object: b.object as [string, string],
    provenance,
  };
  if (b.confidence !== undefined) input.confidence = b.confidence;
  if (b.payload !== undefined) input.payload = b.payload;
  return input;
}

/** The library names provenance fields under provenance.*; on the wire they are top-level fields. */
export function wireField(field: string): string {
  return field.replace(/(^|\.)provenance\.(source_id|source_type|derived_from)/, '$1$2');
}

function relocate(e: unknown, single: boolean): unknown {
  if (!(e instanceof KbValidationError)) return e;
  const message = e.message.replace(/^[^:]*: /, '');
  // A one-claim batch reports the field as a single ingest would, without the batch index.
  if (single) return new KbValidationError(e.code, wireField(e.field), message);
  return new KbValidationError(e.code, wireField(e.field), message, e.index);
}

/** A warning's field as the wire names it (source_id, not provenance.source_id). */
const wireWarning = <W extends ClaimWarning>(w: W): W => ({ ...w, field: wireField(w.field) });

/**
 * One claim through ingestBatch (atomic, reports duplicates), returned as the stored claim with its warnings
 * (vocabulary violations a non-strict base stores; a source retracted before).
 */
export async function ingestClaim(
  db: KbDB,
  body: ClaimBody,
): Promise<{ claim: Claim; duplicate: boolean; warnings: ClaimWarning[] }> {
  let r: IngestBatchResult;
  try {
    r = await db.ingestBatch([toClaimInput(body)]);
  } catch (e) {
    throw relocate(e, true);
  }
  const claim = await db.getClaim(r.claim_ids[0]!);
  if (!claim) throw new Error(`claim ${r.claim_ids[0]} was stored but cannot be read back`); // ours: 500
  const warnings = r.warnings.map(({ index: _i, ...w }) => wireWarning(w));
  return { claim, duplicate: r.duplicates === 1, warnings };
}

export async function ingestBatch(db: KbDB, claims: ClaimBody[]) {
  let r: IngestBatchResult;
  try {
    r = await db.ingestBatch(claims.map(toClaimInput));
  } catch (e) {
    throw relocate(e, false);
  }
  return { ...r, warnings: r.warnings.map(wireWarning) };
}

/**
 * Claims from prose through the library's ingestText. The wire's fields are the library's options by name
 * (`extraction` a mode of EXTRACTION_MODES, `provider` a name, "name:model" or options; schemas.ts checks that
 * they fit IngestTextOptions), so they are handed on as they are.
 */
export async function ingestText(db: KbDB, body: TextIngestBody): Promise<IngestResult> {
  // Without source_id the library names the text by its hash (text:<sha256 prefix>), as the seed does.
  const { text, ...options } = body;
  const r = await db.ingestText(text, options);
  return { ...r, warnings: r.warnings.map(wireWarning) };
}

/**
 * Paths between two entities, as both surfaces answer them: the ids the two names resolved to, and the paths.
 * An entity that does not resolve is not_found (the library would answer no paths, which reads as "not
 * connected").
 */
export async function findPaths(
  view: KbReader,
  o: { from: string; to: string; max_depth?: number; top_k?: number },
): Promise<{ from: string; to: string; paths: Path[] }> {
  const from = (await getEntityOrThrow(view, o.from)).id;
  const to = (await getEntityOrThrow(view, o.to)).id;
  return { from, to, paths: await view.findPaths(from, to, { max_depth: o.max_depth ?? 3, top_k: o.top_k ?? 5 }) };
}

/** The live base, or a read-only view as of `as_of` (ISO 8601). */
export async function viewAt(db: KbDB, as_of: string | undefined): Promise<KbReader> {
  if (as_of === undefined) return db;
  if (Number.isNaN(Date.parse(as_of)))
    throw new KbValidationError(
      'invalid_timestamp',
      'as_of',
      'must be an ISO 8601 timestamp, e.g. 2026-01-31T12:00:00Z',
    );
  return db.at(as_of);
}

export async function getEntityOrThrow(view: KbReader, id: string) {
  const e = await view.getEntity(id);
  if (!e) throw new KbNotFoundError('entity', id);
  return e;
}

export async function retractSource(db: KbDB, source_id: string, reason: string, cascade = false) {
  const r = cascade ? await db.retractCascade(source_id, reason) : await db.retract(source_id, reason);
  return { ...r, cascade };
}

export type MatchKind = 'exact' | 'alias' | 'prefix' | 'substring' | 'semantic' | 'type' | 'all';
export interface SearchHit extends EntitySummary {
  match: MatchKind;
  score: number;
}

/** The id without its type prefix ('gene:brca1' -> 'brca1'). */
const local = (e: EntitySummary) =>
  (e.id.startsWith(`${e.type}:`) ? e.id.slice(e.type.length + 1) : e.id).toLowerCase();

const RANK: Record<MatchKind, number> = { exact: 5, alias: 4, prefix: 3, substring: 2, semantic: 1.5, type: 1, all: 0 };
/** How many entities the library's searchEntities (names, synonyms, relationships; hybrid) adds after name matches. */
const SEMANTIC_HITS = 50;

/**
 * Entities by name, alias or type, best first: the entity the library resolves the query to (its name,
 * an alias or a vocabulary synonym), then ids/names starting with it, then containing it, then entities
 * of a type with that name; ties by claim count. No query: all entities (of `type`) by claim count.
 */
export async function searchEntities(
  view: KbReader,
  o: { query?: string; entity_type?: string; min_claims?: number },
): Promise<SearchHit[]> {
  const all = await view.listEntities({
    ...(o.entity_type ? { entity_type: o.entity_type } : {}),
    ...(o.min_claims !== undefined ? { min_claims: o.min_claims } : {}),
  });
  const q = (o.query ?? '').trim().toLowerCase();
  let hits: SearchHit[];
  if (q === '') {
    hits = all.map((e) => ({ ...e, match: 'all' as const, score: 0 }));
  } else {
    const resolved = await view.resolve(q);
    const qId = q.replace(/[\s-]+/g, '_');
    hits = [];
    for (const e of all) {
      const name = e.name.toLowerCase();
      const id = e.id.toLowerCase();
      let m: MatchKind | null = null;
      if (e.id === resolved) m = name === q ? 'exact' : 'alias';
      else if (name.startsWith(q) || (qId.includes(':') ? id.startsWith(qId) : local(e).startsWith(qId))) m = 'prefix';
      else if (name.includes(q) || (qId.includes(':') ? id.includes(qId) : local(e).includes(qId))) m = 'substring';
      else if (e.type === qId) m = 'type';
      if (m) hits.push({ ...e, match: m, score: RANK[m] + Math.min(0.99, Math.log10(1 + e.claim_count) / 10) });
    }
    // Then what the words mean: entities the library's search ranks for the query (a class name, a
    // paraphrase, what an entity relates to), after every name match, in the library's order.
    const seen = new Set(hits.map((h) => h.id));
    const min = o.min_claims ?? 1;
    const found = await view.searchEntities(o.query!.trim(), {
      k: SEMANTIC_HITS,
      ...(o.entity_type ? { entity_type: o.entity_type } : {}),
    });
    found.results.forEach((h, i) => {
      if (seen.has(h.entity.id) || h.entity.claim_count < min) return;
      hits.push({ ...h.entity, match: 'semantic', score: RANK.semantic + 0.49 * (1 - i / SEMANTIC_HITS) });
    });
  }
  hits.sort(
    (a, b) => b.score - a.score || b.claim_count - a.claim_count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  return hits;
}

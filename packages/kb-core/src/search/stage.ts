// The search stage's calls as a base or a view answers them: argument checks, then search.ts over a read
// context and the graph's search index.
import { KbError, KbValidationError } from '../errors.js';
import type { ReadContext } from '../graph/read.js';
import { callForm } from '../call-forms.js';
import { SEARCH_INDEX, type SearchIndex } from './search-index.js';
import { searchTurns } from '../offload/turns.js';
import {
  queryVector,
  SEARCH_MODES,
  searchClaims,
  searchEntities,
  type EntitySearchAnswer,
  type SearchAnswer,
  type SearchFilters,
  type SearchMode,
} from './search.js';

export interface SearchOptions extends SearchFilters {
  k?: number;
  mode?: SearchMode;
}

export interface SearchEntitiesOptions {
  k?: number;
  entity_type?: string;
  mode?: SearchMode;
}

export const SEARCH_KEYS = ['k', 'mode', 'entity_type', 'predicate', 'source_type', 'min_confidence'] as const;
export const SEARCH_ENTITIES_KEYS = ['k', 'mode', 'entity_type'] as const;
const MAX_QUERY = 2000;

function checkQuery(query: unknown): string {
  if (typeof query !== 'string' || query.trim() === '')
    throw new KbValidationError(
      query === undefined ? 'missing_field' : 'invalid_type',
      'query',
      'must be a non-empty string',
    );
  if (query.length > MAX_QUERY)
    throw new KbValidationError('too_long', 'query', `is longer than ${MAX_QUERY} characters`);
  return query;
}

function checkK(k: unknown): number {
  if (k === undefined) return 10;
  if (typeof k !== 'number' || !Number.isInteger(k) || k < 1 || k > 1000)
    throw new KbValidationError('out_of_range', 'k', 'must be an integer from 1 to 1000');
  return k;
}

function checkMode(mode: unknown): SearchMode {
  if (mode === undefined) return 'hybrid';
  if (!SEARCH_MODES.includes(mode as SearchMode))
    throw new KbValidationError('invalid_value', 'mode', `must be one of ${SEARCH_MODES.join(', ')}`);
  return mode as SearchMode;
}

function checkText(v: unknown, field: string): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v.trim() === '')
    throw new KbValidationError('invalid_type', field, 'must be a non-empty string');
  return v;
}

function indexOf(rc: ReadContext): SearchIndex {
  const ix = rc.s.derivedIndex(SEARCH_INDEX);
  // A what-if view that adds claims reads a copy of the index without the search index (facade/what-if.ts).
  if (ix === undefined)
    throw new KbError(
      'search_unavailable',
      'search is not available on a what-if view that adds claims: search the base or an at(t) view',
      { status: 409 },
    );
  return ix as SearchIndex;
}

/**
 * search(query, k) or search(query, { k, mode, entity_type, predicate, source_type, min_confidence }). The index
 * takes in what is waiting and the query's vector is made first; the ranking then runs in a turn of its own
 * (offload/turns.ts), after `settled` (no write between its apply and its append, as reads wait for).
 */
// Deliberate likeness: runSearchEntities checks its call form alike; the options and the ranking differ.
export function runSearch(
  rc: () => ReadContext,
  query: unknown,
  rest: unknown[],
  settled: () => Promise<void>,
): Promise<SearchAnswer> {
  const q = checkQuery(query);
  const o = callForm<SearchOptions>(rest, ['k', 'mode'], ['number', 'string'], SEARCH_KEYS);
  const k = checkK(o.k);
  const mode = checkMode(o.mode);
  const filters: SearchFilters = {};
  const et = checkText(o.entity_type, 'entity_type');
  if (et !== undefined) filters.entity_type = et;
  const p = checkText(o.predicate, 'predicate');
  if (p !== undefined) filters.predicate = p;
  const st = checkText(o.source_type, 'source_type');
  if (st !== undefined) filters.source_type = st;
  if (o.min_confidence !== undefined) {
    const m = o.min_confidence;
    if (typeof m !== 'number' || !Number.isFinite(m) || m < 0 || m > 1)
      throw new KbValidationError('out_of_range', 'min_confidence', 'must be a number from 0 to 1');
    filters.min_confidence = m;
  }
  const ctx = rc();
  const ix = indexOf(ctx);
  return inTurn(ix, q, mode, settled, (v) => searchClaims(ctx, ix, q, k, mode, filters, v));
}

/** searchEntities(query, k) or searchEntities(query, { k, entity_type, mode }); in a turn, as runSearch. */
// Deliberate likeness: runSearch checks its call form alike; the options and the ranking differ.
export function runSearchEntities(
  rc: () => ReadContext,
  query: unknown,
  rest: unknown[],
  settled: () => Promise<void>,
): Promise<EntitySearchAnswer> {
  const q = checkQuery(query);
  const o = callForm<SearchEntitiesOptions>(rest, ['k', 'entity_type'], ['number', 'string'], SEARCH_ENTITIES_KEYS);
  const [k, mode, type] = [checkK(o.k), checkMode(o.mode), checkText(o.entity_type, 'entity_type')];
  const ctx = rc();
  const ix = indexOf(ctx);
  return inTurn(ix, q, mode, settled, (v) => searchEntities(ctx, ix, q, k, mode, type, v));
}

async function inTurn<T>(
  ix: SearchIndex,
  query: string,
  mode: SearchMode,
  settled: () => Promise<void>,
  rank: (v: Float32Array | undefined) => T,
): Promise<T> {
  await ix.ready();
  const v = await queryVector(ix, query, mode);
  return searchTurns.take(async () => {
    await settled();
    return rank(v);
  });
}

/** The embedding state of the graph a context reads (null when embedding is off). */
export function embeddingIndex(rc: ReadContext): SearchIndex {
  return indexOf(rc);
}

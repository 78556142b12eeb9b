// The graph as sections of a file (store/section-file.ts), so that an open loads it instead of replaying the whole
// log (issue 41, point 3; facade/graph-snapshot.ts decides when). Columns go as they are (typed arrays); strings as
// JSON arrays of strings (entity names, sources, predicates); what is sparse and irregular (raw spellings,
// provenance, payloads, dependants, aliases, retractions, inquiries, the registry's entries) as JSON. Lookup tables
// that are a pass over the columns to make (the source table, entities by type) are made again at load
// (graph-image-load.ts; the entity-id and name maps when first read), the fact table is loaded as it is; caches (raw spellings, content ids, claim-id map, source
// lists, adjacency rows) start empty, as they do after a replay. Bump FORMAT when a section changes: an older file is then ignored.
import type { Section } from '../store/section-file.js';
import type { RawOverride } from './claim-columns.js';
import { REGISTRY_ENTRIES, type RegistryEntries, type RegistryEntry } from './registry-entries.js';
import type { GraphState, Retraction } from './state.js';
import type { InquiryState } from './inquiries.js';

export const GRAPH_IMAGE_FORMAT = 2;

export interface GraphImageMeta {
  format: number;
  claims: number;
  facts: number;
  entities: number;
  self_loops: number;
  active_claims: number;
  last_ts: number;
}

/** The JSON sections' shapes (graph-image-load.ts reads them back). */
export interface EntityExtras {
  types: string[];
  norm: string[];
  name: string[];
  aliases: [number, string[]][];
  other_types: [number, string[]][];
  /** Type tables: the types, and per type which table (types unified with each other share one). */
  table_types: string[];
  table_of: number[];
}
export interface ClaimExtras {
  id_prefixes: string[];
  foreign_ids: [number, string][];
  raw: [number, RawOverride][];
  provenance: [number, unknown][];
  payload: [number, unknown][];
  dependents: [number, number[]][];
  source_ids: string[];
  source_type_index: [string, number][];
  source_type_name: string[];
  pred_name: string[];
  pred_class: string[];
}
export interface GraphExtras {
  retractions: Retraction[];
  /** matchedTs Infinity is written as null (JSON has no Infinity). */
  inquiries: (Omit<InquiryState, 'matchedTs'> & { matchedTs: number | null })[];
  registry: RegistryEntry[];
}

const head = <T extends Int32Array | Float64Array | Uint8Array>(a: T, n: number): T => a.subarray(0, n) as T;

function entitySections(g: GraphState): Section[] | null {
  const E = g.entities;
  const n = E.count;
  const typeIndex = new Map<string, number>();
  const type = new Int32Array(n);
  for (let e = 0; e < n; e++) {
    const t = E.type[e]!;
    let i = typeIndex.get(t);
    if (i === undefined) {
      i = typeIndex.size;
      typeIndex.set(t, i);
    }
    type[e] = i;
  }
  // Each table's entities in the table's order; its keys are their canonical names (checked: else no image).
  const tables = new Map<Map<string, number>, number>();
  const tableTypes: string[] = [];
  const tableOf: number[] = [];
  const sizes: number[] = [];
  const members: number[] = [];
  for (const [t, m] of E.typeTables()) {
    let i = tables.get(m);
    if (i === undefined) {
      i = tables.size;
      tables.set(m, i);
      sizes.push(m.size);
      for (const [norm, e] of m) {
        if (E.norm[e] !== norm) return null;
        members.push(e);
      }
    }
    tableTypes.push(t);
    tableOf.push(i);
  }
  const extras: EntityExtras = {
    types: [...typeIndex.keys()],
    norm: E.norm,
    name: E.name,
    aliases: [...E.aliases].map(([e, s]) => [e, [...s]]),
    other_types: [...E.otherTypes],
    table_types: tableTypes,
    table_of: tableOf,
  };
  return [
    { name: 'ent.extras', kind: 'json', data: extras },
    { name: 'ent.type', kind: 'i32', data: type },
    { name: 'ent.table_sizes', kind: 'i32', data: Int32Array.from(sizes) },
    { name: 'ent.table_members', kind: 'i32', data: Int32Array.from(members) },
    { name: 'ent.first_fact', kind: 'i32', data: head(E.firstFact.a, n) },
    { name: 'ent.last_slot', kind: 'i32', data: head(E.lastSlot.a, n) },
    { name: 'ent.active', kind: 'i32', data: head(E.active.a, n) },
  ];
}

/** Fact columns by section name (the same list serves the load). */
export const FACT_COLUMNS = ['S', 'O', 'P', 'first', 'last', 'claimCount', 'sources', 'nextS', 'nextO'] as const;
export const CLAIM_I32 = ['fact', 'source', 'sourceType', 'nextInFact'] as const;
export const CLAIM_F64 = ['conf', 'ts', 'retractTs', 'degradeTs'] as const;

/** The graph's sections and meta; null when it cannot be imaged (no registry recorder, an unexpected table). */
export function graphImage(g: GraphState): { meta: GraphImageMeta; sections: Section[] } | null {
  const recorder = g.derivedIndex(REGISTRY_ENTRIES) as RegistryEntries | undefined;
  // The entities' fact lists and the claims' times are made lazily: complete before they are written out.
  g.facts.listsReady();
  const entities = entitySections(g);
  if (recorder === undefined || entities === null) return null;
  const F = g.facts;
  const C = g.claims;
  C.timesReady();
  const nf = F.count;
  const nc = C.count;
  const ids = C.ids.exportState();
  const claimExtras: ClaimExtras = {
    id_prefixes: ids.prefixes,
    foreign_ids: ids.foreign,
    raw: [...C.raw],
    provenance: [...C.provenance],
    payload: [...C.payload],
    dependents: [...C.dependents],
    source_ids: C.sourceIds,
    source_type_index: [...C.sourceTypeIndex],
    source_type_name: C.sourceTypeName,
    pred_name: g.predName,
    pred_class: g.predClass,
  };
  const graphExtras: GraphExtras = {
    retractions: g.retractions,
    inquiries: g.inquiryBook.list.map((q) => ({ ...q, matchedTs: q.matchedTs === Infinity ? null : q.matchedTs })),
    registry: recorder.list,
  };
  const sections: Section[] = [
    ...entities,
    ...FACT_COLUMNS.map((k): Section => ({ name: `fact.${k}`, kind: 'i32', data: head(F[k].a, nf) })),
    // The fact table as it is: loading it is a read, making it again a hash and a probe per fact.
    { name: 'fact.table', kind: 'i32', data: F.table.exportSlots() },
    { name: 'claim.id_prefix', kind: 'i32', data: ids.prefix },
    { name: 'claim.id_counter', kind: 'f64', data: ids.counter },
    ...CLAIM_I32.map((k): Section => ({ name: `claim.${k}`, kind: 'i32', data: head(C[k].a, nc) })),
    ...CLAIM_F64.map((k): Section => ({ name: `claim.${k}`, kind: 'f64', data: head(C[k].a, nc) })),
    { name: 'claim.status', kind: 'u8', data: head(C.status.a, nc) },
    { name: 'claim.extras', kind: 'json', data: claimExtras },
    { name: 'graph.extras', kind: 'json', data: graphExtras },
  ];
  const meta: GraphImageMeta = {
    format: GRAPH_IMAGE_FORMAT,
    claims: nc,
    facts: nf,
    entities: g.entities.count,
    self_loops: g.selfLoops,
    active_claims: g.activeClaims,
    last_ts: g.lastTs,
  };
  return { meta, sections };
}

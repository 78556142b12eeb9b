// Loads a graph image (graph-image.ts) into an empty graph: the columns are taken as read (arrays over the file's
// buffer, replaced when they grow), the lookup tables made again from them. Throws when a section is missing or its
// length disagrees with the counts; the caller then throws the graph away and replays the log.
import { entityId } from '../model/normalize.js';
import type { SectionFile } from '../store/section-file.js';
import type { F64Column, I32Column } from './columns.js';
import {
  CLAIM_F64,
  CLAIM_I32,
  FACT_COLUMNS,
  GRAPH_IMAGE_FORMAT,
  type ClaimExtras,
  type EntityExtras,
  type GraphExtras,
  type GraphImageMeta,
} from './graph-image.js';
import { applyRegistryEntry, REGISTRY_ENTRIES, type RegistryEntries } from './registry-entries.js';
import type { GraphState } from './state.js';

function take<T extends Int32Array | Float64Array | Uint8Array>(
  col: { adopt(a: T, n: number): void },
  a: T,
  n: number,
  what: string,
): void {
  if (a.length !== n) throw new Error(`graph image: ${what} holds ${a.length}, expected ${n}`);
  col.adopt(a, n);
}

function loadEntities(g: GraphState, file: SectionFile, n: number): void {
  const E = g.entities;
  const x = file.json('ent.extras') as EntityExtras;
  const type = file.i32('ent.type');
  if (type.length !== n || x.norm.length !== n || x.name.length !== n) throw new Error('graph image: entities');
  for (let e = 0; e < n; e++) {
    const t = x.types[type[e]!]!;
    const norm = x.norm[e]!;
    E.ids.push(entityId(t, norm));
    E.type.push(t);
    E.norm.push(norm);
    E.name.push(x.name[e]!);
  }
  take(E.firstFact, file.i32('ent.first_fact'), n, 'entity first facts');
  take(E.lastSlot, file.i32('ent.last_slot'), n, 'entity last slots');
  take(E.active, file.i32('ent.active'), n, 'entity counts');
  for (const [e, names] of x.aliases) E.aliases.set(e, new Set(names));
  for (const [e, types] of x.other_types) E.otherTypes.set(e, types);
  const sizes = file.i32('ent.table_sizes');
  const members = file.i32('ent.table_members');
  const tables: Map<string, number>[] = [];
  let at = 0;
  for (const size of sizes) {
    const m = new Map<string, number>();
    for (const end = at + size; at < end; at++) m.set(x.norm[members[at]!]!, members[at]!);
    tables.push(m);
  }
  if (at !== members.length) throw new Error('graph image: type tables');
  const byType = new Map<string, Map<string, number>>();
  x.table_types.forEach((t, i) => {
    byType.set(t, tables[x.table_of[i]!]!);
  });
  E.restoreTypeTables(byType);
}

function loadFacts(g: GraphState, file: SectionFile, n: number): void {
  const F = g.facts;
  for (const k of FACT_COLUMNS) take(F[k], file.i32(`fact.${k}`), n, `fact.${k}`);
  F.linked = n;
  F.table.importSlots(file.i32('fact.table'), n);
}

function loadClaims(g: GraphState, file: SectionFile, n: number, x: ClaimExtras): void {
  const C = g.claims;
  const prefix = file.i32('claim.id_prefix');
  const counter = file.f64('claim.id_counter');
  if (prefix.length !== n) throw new Error('graph image: claim ids');
  C.ids.importState(prefix, counter, x.id_prefixes, x.foreign_ids);
  for (const k of CLAIM_I32) take(C[k] as I32Column, file.i32(`claim.${k}`), n, `claim.${k}`);
  for (const k of CLAIM_F64) take(C[k] as F64Column, file.f64(`claim.${k}`), n, `claim.${k}`);
  take(C.status, file.u8('claim.status'), n, 'claim status');
  // Built at the first retraction from the source column, as after a replay; the column is there, all ends.
  take(C.nextInSource, new Int32Array(n).fill(-1), n, 'source links');
  for (const [c, r] of x.raw) C.raw.set(c, r);
  for (const [c, p] of x.provenance) C.provenance.set(c, p as never);
  for (const [c, p] of x.payload) C.payload.set(c, p);
  for (const [c, d] of x.dependents) C.dependents.set(c, d);
  C.restoreSources(x.source_ids);
  for (const [k, v] of x.source_type_index) C.sourceTypeIndex.set(k, v);
  C.sourceTypeName.push(...x.source_type_name);
}

/**
 * Fills `g` (new, nothing applied) from an image; throws when the image does not hold what its meta says. Other
 * derived indexes than the inquiry book and the registry's entries (both in the image) are then offered every
 * loaded claim in order, as the replay would have (the search intake takes them in the background).
 */
export function loadGraphImage(g: GraphState, file: SectionFile): void {
  const meta = file.meta as Partial<GraphImageMeta>;
  if (meta.format !== GRAPH_IMAGE_FORMAT) throw new Error('graph image: another format');
  const recorder = g.derivedIndex(REGISTRY_ENTRIES) as RegistryEntries | undefined;
  if (recorder === undefined || recorder.list.length !== 0 || g.claimCount !== 0 || g.entities.count !== 0)
    throw new Error('graph image: the graph is not new');
  const extras = file.json('graph.extras') as GraphExtras;
  for (const e of extras.registry) {
    applyRegistryEntry(g.registry, e);
    recorder.list.push(e);
  }
  const claimExtras = file.json('claim.extras') as ClaimExtras;
  loadEntities(g, file, meta.entities!);
  claimExtras.pred_name.forEach((p, i) => {
    g.predIndex.set(p, i);
    g.predName.push(p);
    g.predClass.push(claimExtras.pred_class[i]!);
  });
  loadFacts(g, file, meta.facts!);
  loadClaims(g, file, meta.claims!, claimExtras);
  g.retractions.push(...extras.retractions);
  g.inquiryBook.restore(extras.inquiries.map((q) => ({ ...q, matchedTs: q.matchedTs ?? Infinity })));
  g.selfLoops = meta.self_loops!;
  g.activeClaims = meta.active_claims!;
  g.lastTs = meta.last_ts!;
  const ts = g.claimTs;
  for (const d of g.derived) {
    if (d === g.inquiryBook || d === recorder || !d.wantsClaims) continue;
    for (let c = 0; c < meta.claims!; c++) d.onClaim(c, ts[c]!, null);
  }
}

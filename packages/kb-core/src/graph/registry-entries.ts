// The registry's entries in log order (vocabularies, predicates, payload schemas), kept by a derived index so that
// a graph snapshot (graph-image.ts) can rebuild the registry exactly: the registry is a function of these entries
// alone, and they are few. Nothing else reads them.
import type { LogEntry, PayloadSchemaEntry, PredicateEntry, VocabularyEntry } from '../model/entries.js';
import type { Registry, Vocabulary } from '../model/registry.js';
import type { DerivedIndex } from './derived.js';

export const REGISTRY_ENTRIES = 'registry_entries';

export type RegistryEntry = VocabularyEntry | PredicateEntry | PayloadSchemaEntry;

export class RegistryEntries implements DerivedIndex {
  readonly name = REGISTRY_ENTRIES;
  readonly wantsClaims = false;
  readonly list: RegistryEntry[] = [];

  onClaim(): void {}

  onEntry(e: LogEntry): void {
    if (e.kind === 'vocabulary' || e.kind === 'predicate' || e.kind === 'payload_schema') this.list.push(e);
  }
}

export function registryEntriesFactory(): DerivedIndex {
  return new RegistryEntries();
}

/** Applies a registry entry as the write path's replay does (without the graph's part: see graph-image.ts). */
export function applyRegistryEntry(registry: Registry, e: RegistryEntry): void {
  if (e.kind === 'vocabulary') registry.applyVocabulary(e.namespace, e.vocab as Vocabulary);
  else if (e.kind === 'predicate')
    registry.applyPredicate(e.predicate_type, {
      subject_types: e.subject_types,
      object_types: e.object_types,
      ...(e.predicate_class ? { class: e.predicate_class } : {}),
    });
  else registry.applyPayloadSchema(e.predicate_type, e.schema);
}

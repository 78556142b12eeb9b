// Log entries from the arguments of the facade's registrations and inquiries, checked: an inquiry's question,
// subject and object as names or `[name, type]` pairs (the seed's form: only an entity of that type answers) and
// its predicate hint; a vocabulary (a shipped one by name) and a predicate against the registry.
import { KbValidationError } from '../errors.js';
import type { InquiryEntry, PredicateEntry, VocabularyEntry } from '../model/entries.js';
import type { PredicateSpec, Registry, Vocabulary } from '../model/registry.js';
import { builtinVocabularies } from '../vocab/index.js';
import { newId } from './ids.js';

export function inquiryEntry(
  question: string,
  subject: string | [name: string, type: string],
  object: string | [name: string, type: string],
  predicate_hint: string,
): InquiryEntry {
  const text = (v: unknown, field: string, allowEmpty = false) => {
    if (typeof v !== 'string' || (!allowEmpty && v.trim() === ''))
      throw new KbValidationError(
        v === undefined ? 'missing_field' : 'invalid_type',
        field,
        'must be a non-empty string',
      );
    if (v.length > 4000) throw new KbValidationError('too_long', field, 'is longer than 4000 characters');
  };
  const side = (v: unknown, field: string): { name: string; type?: string } => {
    if (!Array.isArray(v)) {
      if (v !== undefined && typeof v !== 'string')
        throw new KbValidationError('invalid_type', field, 'must be a name or a [name, type] pair');
      text(v, field);
      return { name: v as string };
    }
    if (v.length !== 2)
      throw new KbValidationError('invalid_tuple', field, `must have exactly 2 elements [name, type], got ${v.length}`);
    text(v[0], `${field}[0]`);
    text(v[1], `${field}[1]`);
    return { name: v[0], type: v[1] };
  };
  text(question, 'question');
  const s = side(subject, 'subject');
  const o = side(object, 'object');
  text(predicate_hint, 'predicate_hint', true);
  const id = newId('inq_');
  return {
    kind: 'inquiry',
    inquiry_id: id,
    question,
    subject: s.name,
    object: o.name,
    predicate_hint,
    ...(s.type !== undefined ? { subject_type: s.type } : {}),
    ...(o.type !== undefined ? { object_type: o.type } : {}),
  };
}

/** A vocabulary's entry; `vocab` may be omitted for one that ships with the library. */
export function vocabularyEntry(registry: Registry, namespace: string, vocab?: Vocabulary): VocabularyEntry {
  const doc = vocab ?? builtinVocabularies[namespace];
  if (doc === undefined)
    throw new KbValidationError(
      'unknown_vocabulary',
      'namespace',
      `no vocabulary '${namespace}' ships with the library; pass its definition`,
    );
  registry.checkVocabulary(namespace, doc);
  return { kind: 'vocabulary', namespace, vocab: doc };
}

export function predicateEntry(registry: Registry, predicate_type: string, options: PredicateSpec): PredicateEntry {
  registry.checkPredicateSpec(predicate_type, options);
  return {
    kind: 'predicate',
    predicate_type,
    subject_types: options.subject_types ?? [],
    object_types: options.object_types ?? [],
    ...(options.class ? { predicate_class: options.class } : {}),
  };
}

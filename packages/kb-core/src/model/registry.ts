// Vocabularies, predicate constraints and payload schemas. All registrations are log entries, so the
// registry is rebuilt on open like everything else; this class only holds the derived lookup tables.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsMod from 'ajv-formats';
import { KbValidationError } from '../errors.js';
import type { ClaimWarning } from '../types.js';
import { normalizeName, normalizeToken } from './normalize.js';

const addFormats = addFormatsMod as unknown as typeof addFormatsMod.default;

export interface PredicateSpec {
  /** Predicate class the relationship belongs to (e.g. 'pharmacology'); claims must use it when set. */
  class?: string;
  /** Allowed subject entity types; empty or absent = any. */
  subject_types?: string[];
  object_types?: string[];
  description?: string;
}

export interface Vocabulary {
  description?: string;
  entity_types?: string[];
  predicate_classes?: string[];
  predicates?: Record<string, PredicateSpec>;
  /** type -> canonical name -> synonyms. Type '*' applies whatever the entity type. */
  synonyms?: Record<string, Record<string, string[]>>;
  /**
   * Groups of entity types whose entities of one name are one entity (`bio`: `[['gene', 'protein']]`, a gene
   * symbol names the gene and its product alike). The entity keeps the type it was first stated with (its id);
   * the others are kept as its `types`.
   */
  unified_types?: string[][];
  /**
   * Pairs of predicates that contradict each other when asserted for the same subject and object, in the same
   * direction (consensus, sourceReliability, testHypothesis); `not_<p>` contradicts `<p>` without being listed.
   */
  opposite_predicates?: readonly (readonly [string, string])[];
  /** Two-hop compositions predict and testHypothesis infer by (PredicateComposition). */
  predicate_compositions?: readonly PredicateComposition[];
}

/**
 * A two-hop composition: a fact `X first M` followed by a fact `M second Y` suggests `X infers Y`. `stated_by`:
 * predicates whose direct X-Y statement already says as much, so the inference is not offered as new.
 */
export interface PredicateComposition {
  first: string;
  second: string;
  infers: string;
  stated_by: readonly string[];
}

interface PredicateRule {
  predicate_class: string | undefined;
  subject_types: Set<string> | undefined;
  object_types: Set<string> | undefined;
  namespace: string;
}

/** violations() of a claim that fits: shared, never written to. */
const NO_WARNINGS: ClaimWarning[] = Object.freeze([]) as unknown as ClaimWarning[];

function fail(code: string, field: string, message: string): never {
  throw new KbValidationError(code, field, message);
}

function stringList(v: unknown, field: string): string[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) fail('invalid_type', field, 'must be an array of strings');
  return v.map((x, i) => {
    if (typeof x !== 'string' || x.trim() === '') fail('invalid_type', `${field}[${i}]`, 'must be a non-empty string');
    return normalizeToken(x);
  });
}

const PREDICATE_SPEC_KEYS = ['class', 'subject_types', 'object_types', 'description'];
const VOCABULARY_KEYS = [
  'description',
  'entity_types',
  'predicate_classes',
  'predicates',
  'synonyms',
  'unified_types',
  'opposite_predicates',
  'predicate_compositions',
];
const COMPOSITION_KEYS = ['first', 'second', 'infers', 'stated_by'];

/** A key the registration does not have is refused (a typo would otherwise constrain nothing, silently). */
function unknownKeys(o: Record<string, unknown>, field: string, allowed: readonly string[]): void {
  for (const k of Object.keys(o))
    if (!allowed.includes(k))
      fail('unknown_option', `${field}.${k}`, `is not a field here; the fields are ${allowed.join(', ')}`);
}

/** The inner map for `name`, made if missing. */
function byName(m: Map<string, Map<string, string>>, name: string): Map<string, string> {
  let inner = m.get(name);
  if (!inner) {
    inner = new Map();
    m.set(name, inner);
  }
  return inner;
}

export class Registry {
  readonly vocabularies = new Map<string, Vocabulary>();
  readonly entityTypes = new Set<string>();
  readonly predicateClasses = new Set<string>();
  private readonly predicates = new Map<string, PredicateRule>();
  private readonly schemas = new Map<string, { schema: unknown; validate: ValidateFunction }>();
  // Keyed by name first, then by type ('*': any type). Looked up with the normaliser's strings, whose hashes V8
  // has already computed, and without building a composite key string per lookup.
  /** Normalised synonym -> type -> canonical normalised name. */
  private readonly synonyms = new Map<string, Map<string, string>>();
  /** Canonical normalised name -> type -> its synonyms as written (search renders them; src/search). */
  private readonly synonymLists = new Map<string, Map<string, string[]>>();
  /** Canonical normalised name -> type -> display name. */
  private readonly displayNames = new Map<string, Map<string, string>>();
  /** Normalised type -> the types it is unified with, itself included, in a fixed order (Vocabulary.unified_types). */
  private readonly unified = new Map<string, readonly string[]>();
  private readonly ajv: Ajv;

  constructor() {
    this.ajv = new Ajv({ allErrors: false, strict: false });
    addFormats(this.ajv);
  }

  // ---- validation of registrations (before they are logged) -------------------------------------

  checkVocabulary(namespace: unknown, vocab: unknown): Vocabulary {
    if (typeof namespace !== 'string' || !/^[a-z][a-z0-9_.-]{0,63}$/i.test(namespace)) {
      fail('invalid_type', 'namespace', 'must be 1-64 letters, digits, _ . - starting with a letter');
    }
    if (vocab === null || typeof vocab !== 'object' || Array.isArray(vocab))
      fail('invalid_type', 'vocab', 'must be an object');
    const v = vocab as Record<string, unknown>;
    unknownKeys(v, 'vocab', VOCABULARY_KEYS);
    stringList(v.entity_types, 'vocab.entity_types');
    stringList(v.predicate_classes, 'vocab.predicate_classes');
    if (v.predicates !== undefined) {
      if (v.predicates === null || typeof v.predicates !== 'object' || Array.isArray(v.predicates))
        fail('invalid_type', 'vocab.predicates', 'must be an object');
      for (const [name, spec] of Object.entries(v.predicates as Record<string, unknown>)) {
        this.checkPredicateSpec(name, spec, `vocab.predicates.${name}`);
      }
    }
    if (v.unified_types !== undefined) {
      if (!Array.isArray(v.unified_types))
        fail('invalid_type', 'vocab.unified_types', 'must be an array of type lists');
      v.unified_types.forEach((group, i) => {
        const types = stringList(group, `vocab.unified_types[${i}]`);
        if (new Set(types).size < 2)
          fail('invalid_value', `vocab.unified_types[${i}]`, 'must name at least two different entity types');
      });
    }
    if (v.opposite_predicates !== undefined) {
      if (!Array.isArray(v.opposite_predicates))
        fail('invalid_type', 'vocab.opposite_predicates', 'must be an array of predicate pairs');
      v.opposite_predicates.forEach((pair, i) => {
        const field = `vocab.opposite_predicates[${i}]`;
        const ps = stringList(pair, field);
        if (ps.length !== 2 || ps[0] === ps[1]) fail('invalid_value', field, 'must be two different predicates');
      });
    }
    if (v.predicate_compositions !== undefined) {
      if (!Array.isArray(v.predicate_compositions))
        fail('invalid_type', 'vocab.predicate_compositions', 'must be an array of compositions');
      for (const [i, r] of v.predicate_compositions.entries())
        this.checkComposition(r, `vocab.predicate_compositions[${i}]`);
    }
    if (v.synonyms !== undefined) {
      if (v.synonyms === null || typeof v.synonyms !== 'object')
        fail('invalid_type', 'vocab.synonyms', 'must be an object');
      for (const [type, table] of Object.entries(v.synonyms as Record<string, unknown>)) {
        if (table === null || typeof table !== 'object')
          fail('invalid_type', `vocab.synonyms.${type}`, 'must be an object');
        for (const [canon, syns] of Object.entries(table as Record<string, unknown>)) {
          stringList(syns, `vocab.synonyms.${type}.${canon}`);
        }
      }
    }
    return vocab as Vocabulary;
  }

  private checkComposition(rule: unknown, field: string): void {
    if (rule === null || typeof rule !== 'object' || Array.isArray(rule))
      fail('invalid_type', field, 'must be an object { first, second, infers, stated_by }');
    const r = rule as Record<string, unknown>;
    unknownKeys(r, field, COMPOSITION_KEYS);
    for (const k of ['first', 'second', 'infers'] as const)
      if (typeof r[k] !== 'string' || r[k].trim() === '')
        fail('invalid_type', `${field}.${k}`, 'must be a non-empty string');
    if (r.stated_by === undefined) fail('invalid_type', `${field}.stated_by`, 'must be an array of predicates');
    stringList(r.stated_by, `${field}.stated_by`);
  }

  checkPredicateSpec(name: unknown, spec: unknown, field = 'options'): void {
    if (typeof name !== 'string' || name.trim() === '')
      fail('invalid_type', 'predicate_type', 'must be a non-empty string');
    if (spec === null || typeof spec !== 'object' || Array.isArray(spec))
      fail('invalid_type', field, 'must be an object');
    const s = spec as Record<string, unknown>;
    unknownKeys(s, field, PREDICATE_SPEC_KEYS);
    stringList(s.subject_types, `${field}.subject_types`);
    stringList(s.object_types, `${field}.object_types`);
    if (s.class !== undefined && (typeof s.class !== 'string' || s.class.trim() === ''))
      fail('invalid_type', `${field}.class`, 'must be a non-empty string');
  }

  checkPayloadSchema(predicateType: unknown, schema: unknown): void {
    if (typeof predicateType !== 'string' || predicateType.trim() === '')
      fail('invalid_type', 'predicate_type', 'must be a non-empty string');
    if (schema === null || (typeof schema !== 'object' && typeof schema !== 'boolean'))
      fail('invalid_type', 'schema', 'must be a JSON Schema object');
    try {
      this.ajv.compile(schema as object);
    } catch (e) {
      fail('invalid_schema', 'schema', `is not a valid JSON Schema: ${(e as Error).message}`);
    }
  }

  // ---- applying registrations (from the log) -------------------------------------------------------

  applyVocabulary(namespace: string, vocab: Vocabulary): void {
    this.vocabularies.set(namespace, vocab);
    for (const t of vocab.entity_types ?? []) this.entityTypes.add(normalizeToken(t));
    for (const c of vocab.predicate_classes ?? []) this.predicateClasses.add(normalizeToken(c));
    for (const [name, spec] of Object.entries(vocab.predicates ?? {})) this.applyPredicate(name, spec, namespace);
    for (const [rawType, table] of Object.entries(vocab.synonyms ?? {})) {
      const type = rawType === '*' ? '*' : normalizeToken(rawType);
      for (const [canon, syns] of Object.entries(table)) {
        const c = normalizeName(canon);
        byName(this.displayNames, c).set(type, canon);
        const lists = this.synonymLists.get(c) ?? new Map<string, string[]>();
        this.synonymLists.set(c, lists);
        lists.set(type, [...(lists.get(type) ?? []), ...syns]);
        for (const s of syns) byName(this.synonyms, normalizeName(s)).set(type, c);
      }
    }
    for (const group of vocab.unified_types ?? []) {
      // Groups that share a type become one group (gene ~ protein and protein ~ peptide: all three).
      const all = new Set<string>();
      for (const t of group.map(normalizeToken)) for (const u of this.unified.get(t) ?? [t]) all.add(u);
      const merged = [...all].sort();
      for (const t of merged) this.unified.set(t, merged);
    }
  }

  applyPredicate(name: string, spec: PredicateSpec, namespace = 'custom'): void {
    const sub = (spec.subject_types ?? []).map(normalizeToken);
    const obj = (spec.object_types ?? []).map(normalizeToken);
    this.predicates.set(normalizeToken(name), {
      predicate_class: spec.class === undefined ? undefined : normalizeToken(spec.class),
      subject_types: sub.length ? new Set(sub) : undefined,
      object_types: obj.length ? new Set(obj) : undefined,
      namespace,
    });
  }

  applyPayloadSchema(predicateType: string, schema: unknown): void {
    this.schemas.set(normalizeToken(predicateType), { schema, validate: this.ajv.compile(schema as object) });
  }

  // ---- lookups -------------------------------------------------------------------------------------

  /** The canonical normalised name for a (type, normalised name), following synonyms. */
  canonicalName(type: string, norm: string): string {
    if (this.synonyms.size === 0) return norm;
    const m = this.synonyms.get(norm);
    return m === undefined ? norm : (m.get(type) ?? m.get('*') ?? norm);
  }

  /**
   * The types unified with a (normalised) type, itself included (Vocabulary.unified_types); undefined for a
   * type unified with no other.
   */
  unifiedTypes(type: string): readonly string[] | undefined {
    return this.unified.size === 0 ? undefined : this.unified.get(type);
  }

  /** Every group of unified types (each sorted). */
  unifiedTypeGroups(): (readonly string[])[] {
    return [...new Set(this.unified.values())];
  }

  /** Whether entities of these (normalised) types and one name are one entity: the same type or unified ones. */
  sameEntityType(a: string, b: string): boolean {
    return a === b || (this.unified.size > 0 && this.unified.get(a) === this.unified.get(b) && this.unified.has(a));
  }

  /** Canonical names a type-less name may stand for (any type's synonym table). */
  canonicalCandidates(norm: string): string[] {
    // Most names are no synonym: no Set (an entity lookup per query asks).
    const m = this.synonyms.get(norm);
    if (m === undefined) return [norm];
    const out = new Set<string>([norm]);
    for (const v of m.values()) out.add(v);
    return [...out];
  }

  /** The synonyms registered for a canonical name of this type (or of any type), as written. */
  synonymsOf(type: string, canonical: string): readonly string[] {
    const m = this.synonymLists.get(canonical);
    if (m === undefined) return [];
    const a = m.get(type);
    const b = m.get('*');
    return a && b ? [...a, ...b] : (a ?? b ?? []);
  }

  displayName(type: string, canonical: string): string | undefined {
    if (this.displayNames.size === 0) return undefined;
    const m = this.displayNames.get(canonical);
    return m === undefined ? undefined : (m.get(type) ?? m.get('*'));
  }

  /** Whether violations() or checkPayload() can find anything (a predicate rule, a payload schema or a vocabulary). */
  get constrainsClaims(): boolean {
    return this.predicates.size > 0 || this.schemas.size > 0 || this.entityTypes.size > 0;
  }

  /** The class a registered predicate rule requires, if any (readers skip reading a claim's class otherwise). */
  requiredClass(predicate: string): string | undefined {
    return this.predicates.get(predicate)?.predicate_class;
  }

  /**
   * What the claim breaks of the registered vocabularies and predicates (all arguments normalised): the
   * predicate's class, its subject and object types, and entity types no registered vocabulary has. Empty when
   * nothing. A strict base refuses the first of the first three kinds (see write/capture.ts); a non-strict
   * one stores the claim with these as its warnings.
   */
  violations(subjectType: string, predicate: string, predicateClass: string, objectType: string): ClaimWarning[] {
    const rule = this.predicates.get(predicate);
    const types = this.entityTypes;
    // The common case, a claim that fits, allocates nothing.
    if (
      (rule === undefined ||
        ((rule.predicate_class === undefined || rule.predicate_class === predicateClass) &&
          (rule.subject_types === undefined || rule.subject_types.has(subjectType)) &&
          (rule.object_types === undefined || rule.object_types.has(objectType)))) &&
      (types.size === 0 || (types.has(subjectType) && types.has(objectType)))
    )
      return NO_WARNINGS;
    const out: ClaimWarning[] = [];
    if (rule) {
      if (rule.predicate_class !== undefined && rule.predicate_class !== predicateClass) {
        out.push({
          code: 'predicate_class',
          field: 'predicate[1]',
          message: `'${predicate}' belongs to class '${rule.predicate_class}', not '${predicateClass}'`,
        });
      }
      if (rule.subject_types && !rule.subject_types.has(subjectType)) {
        out.push({
          code: 'type_constraint',
          field: 'subject[1]',
          message: `'${predicate}' needs a subject of type ${[...rule.subject_types].join(' | ')}, got '${subjectType}'`,
        });
      }
      if (rule.object_types && !rule.object_types.has(objectType)) {
        out.push({
          code: 'type_constraint',
          field: 'object[1]',
          message: `'${predicate}' needs an object of type ${[...rule.object_types].join(' | ')}, got '${objectType}'`,
        });
      }
    }
    if (types.size > 0) {
      for (const [field, t] of [
        ['subject[1]', subjectType],
        ['object[1]', objectType],
      ] as const) {
        if (!types.has(t) && !out.some((w) => w.field === field))
          out.push({ code: 'unknown_type', field, message: `no registered vocabulary has the entity type '${t}'` });
      }
    }
    return out;
  }

  /** Throws when the payload breaks the JSON Schema registered for the predicate (never relaxed: the user's own contract). */
  checkPayload(predicate: string, payload: unknown): void {
    const s = this.schemas.get(predicate);
    if (s && !s.validate(payload)) {
      const err = s.validate.errors?.[0];
      const where = err?.instancePath ? `payload${err.instancePath.replace(/\//g, '.')}` : 'payload';
      fail(
        'payload_schema',
        where,
        `does not match the schema registered for '${predicate}': ${err?.message ?? 'invalid'}`,
      );
    }
  }

  predicateSpecs(): Record<
    string,
    { predicate_class?: string; subject_types: string[]; object_types: string[]; namespace: string }
  > {
    const out: Record<
      string,
      { predicate_class?: string; subject_types: string[]; object_types: string[]; namespace: string }
    > = {};
    for (const [k, r] of this.predicates) {
      out[k] = {
        ...(r.predicate_class === undefined ? {} : { predicate_class: r.predicate_class }),
        subject_types: [...(r.subject_types ?? [])],
        object_types: [...(r.object_types ?? [])],
        namespace: r.namespace,
      };
    }
    return out;
  }

  payloadSchemas(): Record<string, unknown> {
    return Object.fromEntries([...this.schemas].map(([k, v]) => [k, v.schema]));
  }
}

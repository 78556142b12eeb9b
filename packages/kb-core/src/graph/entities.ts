// Entities: interned to dense integers by (normalised type, canonical name), with their ids, names, aliases,
// the other types unified with theirs they were stated with (Vocabulary.unified_types: a gene and its protein),
// the raw spellings already resolved (so a known spelling skips normalising), per-entity counters, and the
// head and tail of each entity's fact list (the list itself threads through the fact columns, see facts.ts).
import { KbCapacityError } from '../errors.js';
import { entityId } from '../model/normalize.js';
import type { Registry } from '../model/registry.js';
import { I32Column } from './columns.js';
import { StringTable } from './string-table.js';

// Entity indices are Int32-friendly; keep well inside that.
const ENTITY_KEY_LIMIT = 2 ** 30;

export class Entities {
  /** Entity id -> entity, made on first read and kept up to date from then on (see `index`). */
  private idIndex: Map<string, number> | undefined;
  /** type -> canonical name -> entity. Looked up with the normaliser's cached strings, whose hashes V8 keeps. */
  private readonly byType = new Map<string, Map<string, number>>();
  private lastType = '';
  private lastTypeMap: Map<string, number> | undefined;
  /** normalised type -> raw name as written in claims -> entity * 2 (+1 when it is not the display name). */
  private readonly rawNames = new Map<string, StringTable>();
  private lastRawType = '';
  private lastRawMap: StringTable | undefined;
  readonly ids: string[] = [];
  readonly type: string[] = [];
  readonly norm: string[] = [];
  readonly name: string[] = [];
  /** The entity's first fact, or -1. */
  readonly firstFact = new I32Column();
  /** The entity's last fact * 2, plus 1 when the entity is that fact's object (which next column to extend). */
  readonly lastSlot = new I32Column();
  /** Active claims mentioning the entity (a self-loop counts once). */
  readonly active = new I32Column();
  readonly aliases = new Map<number, Set<string>>();
  /** Types other than its own that an entity was stated with (types unified with its own; see unifyTypes). */
  readonly otherTypes = new Map<number, string[]>();
  /** Normalised canonical name -> entities with that name (any type); made on first read (see `nameIndex`). */
  private nameLists: Map<string, number[]> | undefined;
  // Scratch marks for graph expansions (queries run synchronously, one at a time): entity -> epoch last visited.
  private marks = new Uint32Array(0);
  private markEpoch = 0;

  constructor(private readonly registry: Registry) {}

  get count(): number {
    return this.ids.length;
  }

  // The two read-side maps are made from the columns when first read, then kept up to date by intern: the
  // apply itself never reads them, and keeping them from the first claim cost an ingest two Map inserts and an
  // array per new entity (an id string hashed, a name list made) that a base being fed may never be asked for.
  // The same entities in the same order give the same maps either way (a later equal key replaces, as before).

  /** Entity id -> entity. */
  get index(): Map<string, number> {
    if (this.idIndex) return this.idIndex;
    const m = new Map<string, number>();
    const ids = this.ids;
    for (let e = 0; e < ids.length; e++) m.set(ids[e]!, e);
    this.idIndex = m;
    return m;
  }

  /** Normalised canonical name -> entities with that name (any type), in entity order. */
  get nameIndex(): Map<string, number[]> {
    if (this.nameLists) return this.nameLists;
    const m = new Map<string, number[]>();
    const norm = this.norm;
    for (let e = 0; e < norm.length; e++) addToList(m, norm[e]!, e);
    this.nameLists = m;
    return m;
  }

  /** Entity index for a normalised (type, canonical name), or undefined. */
  entityOf(type: string, norm: string): number | undefined {
    let m: Map<string, number> | undefined;
    if (type === this.lastType && this.lastTypeMap) m = this.lastTypeMap;
    else {
      m = this.byType.get(type);
      if (m) {
        this.lastType = type;
        this.lastTypeMap = m;
      }
    }
    return m?.get(norm);
  }

  /**
   * For a raw name already seen with this (normalised) type: entity * 2, plus 1 when the raw name differs
   * from the entity's display name; -1 when not seen. `hash`: StringTable.hash(raw), when the caller has it.
   */
  rawEntity(type: string, raw: string, hash: number = StringTable.hash(raw)): number {
    const m = this.rawTable(type);
    return m ? m.getHashed(raw, hash) : -1;
  }

  /** The raw spellings seen with this (normalised) type, if any. */
  rawTable(type: string): StringTable | undefined {
    if (type === this.lastRawType && this.lastRawMap) return this.lastRawMap;
    const m = this.rawNames.get(type);
    if (!m) return undefined;
    this.lastRawType = type;
    this.lastRawMap = m;
    return m;
  }

  private rememberRaw(type: string, raw: string, e: number): void {
    let m = (type === this.lastRawType && this.lastRawMap) || this.rawNames.get(type);
    if (!m) {
      m = new StringTable();
      this.rawNames.set(type, m);
    }
    if (m.size < 4_000_000) m.set(raw, e * 2 + (raw === this.name[e] ? 0 : 1));
  }

  /** Synonyms changed (a vocabulary was registered): raw spellings may now mean other entities. */
  forgetRawNames(): void {
    this.rawNames.clear();
    this.lastRawMap = undefined;
    this.lastRawType = '';
  }

  /**
   * The types of each group the registry unifies share one name table, so that a name stated with any of them
   * is one entity (entityOf and the apply need no other change). Entities that were apart before stay apart:
   * the name then stands for the one created first.
   */
  unifyTypes(): void {
    for (const group of this.registry.unifiedTypeGroups()) {
      const tables = new Set<Map<string, number>>();
      for (const t of group) {
        const m = this.byType.get(t);
        if (m) tables.add(m);
      }
      let shared: Map<string, number>;
      if (tables.size === 1) shared = [...tables][0]!;
      else {
        shared = new Map();
        for (const m of tables)
          for (const [norm, e] of m) {
            const had = shared.get(norm);
            if (had === undefined || e < had) shared.set(norm, e);
          }
      }
      for (const t of group) this.byType.set(t, shared);
    }
    this.lastType = '';
    this.lastTypeMap = undefined;
  }

  /** `known`: the entity (type, norm) names, or -1 when it is certainly not indexed yet. */
  intern(type: string, norm: string, raw: string, known: number): number {
    let e = known;
    if (e >= 0) {
      this.rememberRaw(type, raw, e);
      // The entity found under a type unified with its own: keep the type it is stated with too.
      if (type !== this.type[e]) {
        const others = this.otherTypes.get(e);
        if (!others) this.otherTypes.set(e, [type]);
        else if (!others.includes(type)) others.push(type);
      }
      if (raw !== this.name[e]) {
        const shown = raw.trim();
        if (shown !== this.name[e]) {
          let set = this.aliases.get(e);
          if (!set) {
            set = new Set();
            this.aliases.set(e, set);
          }
          if (set.size < 32) set.add(shown);
        }
      }
      return e;
    }
    if (this.ids.length >= ENTITY_KEY_LIMIT) {
      throw new KbCapacityError('entities', ENTITY_KEY_LIMIT);
    }
    e = this.ids.length;
    const id = entityId(type, norm);
    this.idIndex?.set(id, e);
    let byType = this.byType.get(type);
    if (!byType) {
      byType = new Map();
      this.byType.set(type, byType);
    }
    byType.set(norm, e);
    this.ids.push(id);
    this.type.push(type);
    this.norm.push(norm);
    const shown = raw.trim();
    const display = this.registry.displayName(type, norm);
    this.name.push(display ?? shown);
    this.rememberRaw(type, raw, e);
    if (display !== undefined && display !== shown) this.aliases.set(e, new Set([shown]));
    this.firstFact.push(-1);
    this.lastSlot.push(-1);
    this.active.push(0);
    if (this.nameLists) addToList(this.nameLists, norm, e);
    return e;
  }

  /** The (type -> canonical name -> entity) tables; types unified with each other share one (graph-image.ts). */
  typeTables(): ReadonlyMap<string, Map<string, number>> {
    return this.byType;
  }

  /** Sets the type tables of a graph loaded from a snapshot (graph-image.ts); raw spellings start unknown. */
  restoreTypeTables(tables: ReadonlyMap<string, Map<string, number>>): void {
    this.byType.clear();
    for (const [t, m] of tables) this.byType.set(t, m);
    this.lastType = '';
    this.lastTypeMap = undefined;
    this.forgetRawNames();
  }

  /** The scratch marks, at least one per entity; pair with nextVisitEpoch(). */
  visitMarks(): Uint32Array {
    if (this.marks.length < this.ids.length) {
      this.marks = new Uint32Array(Math.max(1024, this.ids.length * 2));
      this.markEpoch = 0;
    }
    return this.marks;
  }

  /** A value no entity is marked with yet. */
  nextVisitEpoch(): number {
    if (++this.markEpoch === 0xffffffff) {
      this.marks.fill(0);
      this.markEpoch = 1;
    }
    return this.markEpoch;
  }
}

function addToList(m: Map<string, number[]>, key: string, e: number): void {
  const list = m.get(key);
  if (list) list.push(e);
  else m.set(key, [e]);
}

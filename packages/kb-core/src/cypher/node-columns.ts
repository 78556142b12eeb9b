// Entity properties as dictionary-encoded columns for KbCypherGraph.scanColumns: a scan's names or ids, and the
// entity types, whose codes are kept and extended as entities are added.
import type { Column } from '@evident/cypher';

/** Codes for the scanned slots of a string array (other slots stay null); equal strings share a code. */
export function dictionary(values: readonly string[], rows: Int32Array): Column {
  const codes = new Int32Array(values.length).fill(-1);
  const dict: string[] = [];
  const index = new Map<string, number>();
  // Neighbouring entities often share the value (a type): the last code answers without a map lookup.
  let last: string | undefined;
  let lastCode = -1;
  for (let i = 0; i < rows.length; i++) {
    const e = rows[i]!;
    const v = values[e]!;
    if (v !== last) {
      let c = index.get(v);
      if (c === undefined) {
        c = dict.push(v) - 1;
        index.set(v, c);
      }
      last = v;
      lastCode = c;
    }
    codes[e] = lastCode;
  }
  const column: Column = { kind: 'dict', codes, dict };
  dictIndexes.set(column, index);
  return column;
}

// Each dictionary column's value → code map, so a kept column can be grown by entities added since.
const dictIndexes = new WeakMap<Column, Map<string, number>>();

/** `column` (from dictionary) with the slots `added` coded too, as a new column; undefined when it cannot. */
export function grownDictionary(
  column: Column,
  values: readonly string[],
  added: ArrayLike<number>,
): Column | undefined {
  const index = dictIndexes.get(column);
  if (!index || column.kind !== 'dict') return undefined;
  const codes = new Int32Array(values.length).fill(-1);
  const before = column.codes;
  for (let e = 0; e < before.length && e < values.length; e++) codes[e] = before[e]!;
  const dict = [...column.dict];
  const grown = new Map(index);
  for (let i = 0; i < added.length; i++) {
    const e = added[i]!;
    const v = values[e]!;
    let c = grown.get(v);
    if (c === undefined) {
      c = dict.push(v) - 1;
      grown.set(v, c);
    }
    codes[e] = c;
  }
  const out: Column = { kind: 'dict', codes, dict };
  dictIndexes.set(out, grown);
  return out;
}

// Entity types are appended, never changed (entities.ts): their codes are kept per type array and extended
// to the entities added since, so a scan grouping by type does no string work for entities it saw before.
const typeCodes = new WeakMap<readonly string[], { codes: Int32Array; dict: string[]; index: Map<string, number> }>();

// Deliberate likeness (cypher columns.ts columnOf): dictionary encoding, here kept and grown per snapshot.
export function typeColumn(types: readonly string[]): Column {
  let c = typeCodes.get(types);
  const n = types.length;
  if (!c || c.codes.length < n) {
    const codes = new Int32Array(Math.max(n, 1024, (c?.codes.length ?? 0) * 2)).fill(-1);
    if (c) codes.set(c.codes);
    c = { codes, dict: c?.dict ?? [], index: c?.index ?? new Map() };
    typeCodes.set(types, c);
  }
  const { codes, dict, index } = c;
  for (let e = n - 1; e >= 0 && codes[e] === -1; e--) {
    const v = types[e]!;
    let k = index.get(v);
    if (k === undefined) {
      k = dict.push(v) - 1;
      index.set(v, k);
    }
    codes[e] = k;
  }
  return { kind: 'dict', codes, dict };
}

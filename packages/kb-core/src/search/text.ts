// What is searched: the text a claim stands for and the text of an entity. A claim's text is its fact's
// (subject, predicate and object names, each with the vocabulary's synonyms and the spellings seen) plus a
// short rendering of its payload; claims of one fact share the fact's text, so the index keeps one document
// per fact.
import type { ReadSnapshot } from '../graph/snapshot.js';

/** Payload rendering is cut here: enough for a dose, a cell line or a p-value, not a whole supplement. */
const PAYLOAD_CHARS = 200;

/** The entity's name, its registered synonyms and the other spellings claims used for it. */
export function entityNames(s: ReadSnapshot, e: number): string[] {
  const names = [s.entityName[e]!, ...s.registry.synonymsOf(s.entityType[e]!, s.entityNorm[e]!)];
  for (const a of s.entityAliases.get(e) ?? []) names.push(a);
  return names;
}

/** `take_part_in` -> `take part in`. */
export function predicateWords(p: string): string {
  return p.replace(/[_:]+/g, ' ');
}

/** Keys and scalar values of a payload, depth-first, cut at PAYLOAD_CHARS. */
export function renderPayload(payload: unknown): string {
  const parts: string[] = [];
  let len = 0;
  const walk = (v: unknown, depth: number): void => {
    if (len > PAYLOAD_CHARS || depth > 4 || v === null || v === undefined) return;
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') {
      const t = String(v).slice(0, PAYLOAD_CHARS);
      parts.push(t);
      len += t.length + 1;
    } else if (Array.isArray(v)) {
      for (const x of v) walk(x, depth + 1);
    } else if (typeof v === 'object') {
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        parts.push(k.replace(/_/g, ' '));
        len += k.length + 1;
        walk(x, depth + 1);
      }
    }
  };
  walk(payload, 0);
  return parts.join(' ').slice(0, PAYLOAD_CHARS);
}

/** The fact's text: `subject predicate object`, then the synonyms and spellings of both ends. */
export function factText(s: ReadSnapshot, f: number): string {
  const sub = s.factS[f]!;
  const obj = s.factO[f]!;
  const head = `${s.entityName[sub]} ${predicateWords(s.predName[s.factP[f]!]!)} ${s.entityName[obj]}`;
  const more = [...entityNames(s, sub).slice(1), ...entityNames(s, obj).slice(1)];
  return more.length ? `${head} ${more.join(' ')}` : head;
}

/** The entity's text: names, type, and (given) the words of its relationships. */
export function entityText(s: ReadSnapshot, e: number): string {
  return `${entityNames(s, e).join(' ')} ${predicateWords(s.entityType[e]!)}`;
}

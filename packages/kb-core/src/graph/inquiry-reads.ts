// Inquiries as a read context sees them: an inquiry created after the cutoff does not exist yet, one
// matched after it is still open.
import { KbValidationError } from '../errors.js';
import { normalizeName, normalizeToken } from '../model/normalize.js';
import type { Inquiry } from '../types.js';
import { typeFits } from './inquiries.js';
import type { ReadContext } from './read.js';

/** Inquiry i as of the context's cutoff, or null when it did not exist yet. */
export function inquiryAt(rc: ReadContext, i: number): Inquiry | null {
  const s = rc.s;
  const q = s.inquiries[i]!;
  if (q.createdTs > rc.cutoff) return null;
  const matched = q.matchedTs !== Infinity && q.matchedTs <= rc.cutoff;
  const e = q.entry;
  const subj = rc.lookupEntity(e.subject, e.subject_type);
  const obj = rc.lookupEntity(e.object, e.object_type);
  // Not in the base (yet): the id it would have, when the inquiry gave a type; else the canonical name.
  const idOf = (type: string, norm: string) => (type === '' ? norm : `${type}:${norm}`);
  const out: Inquiry = {
    inquiry_id: e.inquiry_id,
    question: e.question,
    subject: e.subject,
    object: e.object,
    predicate_hint: e.predicate_hint,
    status: matched ? 'matched' : 'open',
    created_at: new Date(q.createdTs).toISOString(),
    subject_id: subj >= 0 ? s.entityIds[subj]! : idOf(q.subjectType, q.subjectNorms[0]!),
    object_id: obj >= 0 ? s.entityIds[obj]! : idOf(q.objectType, q.objectNorms[0]!),
    answer_claim_ids: matched ? q.answers.map((c) => s.claimIdOf(c)) : [],
  };
  if (e.subject_type !== undefined) out.subject_type = e.subject_type;
  if (e.object_type !== undefined) out.object_type = e.object_type;
  if (matched) out.matched_at = new Date(q.matchedTs).toISOString();
  return out;
}

export function openInquiries(rc: ReadContext): Inquiry[] {
  const out: Inquiry[] = [];
  for (let i = 0; i < rc.s.inquiries.length; i++) {
    const q = inquiryAt(rc, i);
    if (q && q.status === 'open') out.push(q);
  }
  return out;
}

export function getInquiry(rc: ReadContext, inquiryId: string): Inquiry | null {
  const i = rc.s.inquiryIndex.get(inquiryId);
  return i === undefined ? null : inquiryAt(rc, i);
}

/** Open inquiries that a claim linking these two entities (ids or names) would answer. */
export function checkInquiryMatches(
  rc: ReadContext,
  options: { subject_id: string; object_id: string; predicate?: string },
): Inquiry[] {
  const s = rc.s;
  // An entity in the base is known by its name and type; a name not in the base matches by name alone.
  const side = (ref: string, field: string) => {
    if (typeof ref !== 'string' || ref.trim() === '') {
      throw new KbValidationError('invalid_type', field, 'must be a non-empty entity id or name');
    }
    const e = rc.lookupEntity(ref);
    return e >= 0
      ? { names: [s.entityNorm[e]!], type: s.entityType[e]! }
      : { names: s.registry.canonicalCandidates(normalizeName(ref)), type: '' };
  };
  const a = side(options.subject_id, 'subject_id');
  const b = side(options.object_id, 'object_id');
  const pred = options.predicate === undefined ? '' : normalizeToken(options.predicate);
  const out: Inquiry[] = [];
  for (let i = 0; i < s.inquiries.length; i++) {
    const q = inquiryAt(rc, i);
    if (q?.status !== 'open') continue;
    const state = s.inquiries[i]!;
    const has = (names: string[], want: string, x: { names: string[]; type: string }) =>
      x.names.some((n) => names.includes(n)) && (x.type === '' || typeFits(s.registry, want, x.type));
    const forward = has(state.subjectNorms, state.subjectType, a) && has(state.objectNorms, state.objectType, b);
    const backward = has(state.subjectNorms, state.subjectType, b) && has(state.objectNorms, state.objectType, a);
    if (!forward && !backward) continue;
    if (pred !== '' && state.hint !== '' && !(pred.includes(state.hint) || state.hint.includes(pred))) continue;
    out.push(q);
  }
  return out;
}

/** Whether an active fact already links inquiry i's subject and object (either direction) fitting its hint. */
function answeredNow(rc: ReadContext, i: number): boolean {
  const s = rc.s;
  const q = s.inquiries[i]!;
  const fitsHint = (p: string) => q.hint === '' || p === q.hint || p.includes(q.hint) || q.hint.includes(p);
  for (const n of q.subjectNorms) {
    for (const e of s.nameIndex.get(n) ?? []) {
      if (!typeFits(s.registry, q.subjectType, s.entityType[e]!)) continue;
      for (let f = s.firstFact(e); f >= 0; f = s.nextFact(f, e)) {
        const other = s.factS[f] === e ? s.factO[f]! : s.factS[f]!;
        if (!q.objectNorms.includes(s.entityNorm[other]!) || !typeFits(s.registry, q.objectType, s.entityType[other]!))
          continue;
        if (fitsHint(s.predName[s.factP[f]!]!) && rc.factHasLive(f)) return true;
      }
    }
  }
  return false;
}

/**
 * The open inquiries (naming `entity` as subject or object, when given) that an active claim already in the
 * base answers: the seed's check_inquiry_matches() without arguments. An inquiry is matched by the first claim
 * after it; this finds the ones a claim from before it answers.
 */
export function answerableInquiries(rc: ReadContext, entity?: string): Inquiry[] {
  const s = rc.s;
  let names: string[] | undefined;
  if (entity !== undefined) {
    if (typeof entity !== 'string' || entity.trim() === '')
      throw new KbValidationError('invalid_type', 'subject_id', 'must be a non-empty entity id or name');
    const e = rc.lookupEntity(entity);
    names = e >= 0 ? [s.entityNorm[e]!] : s.registry.canonicalCandidates(normalizeName(entity));
  }
  const out: Inquiry[] = [];
  for (let i = 0; i < s.inquiries.length; i++) {
    const q = inquiryAt(rc, i);
    if (q?.status !== 'open') continue;
    const state = s.inquiries[i]!;
    if (names && !names.some((n) => state.subjectNorms.includes(n) || state.objectNorms.includes(n))) continue;
    if (answeredNow(rc, i)) out.push(q);
  }
  return out;
}

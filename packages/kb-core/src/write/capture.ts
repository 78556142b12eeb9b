// Capture and validation of claim inputs: shapes are checked and copied into a ClaimRun at call time, with
// the default confidence filled in; references and registry constraints are checked against the index later,
// inside the write (see write-path.ts), where the index is caught up.
import { KbValidationError } from '../errors.js';
import { RETRACTED } from '../graph/state.js';
import type { ReadSnapshot } from '../graph/snapshot.js';
import { newRun, type ClaimRun } from '../model/claim-run.js';
import { defaultConfidence, type ConfidencePolicy } from '../model/confidence.js';
import { normalizeToken } from '../model/normalize.js';
import { validateClaimInput, lastConfidence, lastProvenanceKeys } from '../model/validate.js';
import type { ClaimInput } from '../types.js';
import type { ClaimWarning } from '../types.js';
import { reserveIds } from './ids.js';

export class ClaimCapture {
  /** The columns of the last finished batch, for the next one of the same size (see capture). */
  private spareRun: ClaimRun | undefined;

  constructor(private readonly policy: ConfidencePolicy) {}

  /**
   * Checks claim inputs' shapes and copies them into a ClaimRun, synchronously at call time: the caller may
   * reuse its objects as soon as the call is made, and a store may serialise after an await. Strings are
   * immutable, so the columns share them; provenance extras and payloads are copied. Throws
   * KbValidationError naming the field (and, for a batch, the index).
   */
  capture(inputs: readonly unknown[], batch: boolean): ClaimRun {
    const n = inputs.length;
    const ids = reserveIds(n);
    // A feed usually sends batches of one size: the last batch's columns are reused, so they are not new young
    // objects that every collection during the batch copies again.
    let r = this.spareRun;
    if (r && r.n === n && n > 1) {
      this.spareRun = undefined;
      r.id_prefix = ids.prefix;
      r.id_start = ids.start;
      delete r.provenance_extra;
      delete r.payload;
    } else r = newRun(n, ids.prefix, ids.start);
    for (let i = 0; i < n; i++) {
      let c: ClaimInput;
      try {
        c = validateClaimInput(inputs[i]);
      } catch (e) {
        if (batch && e instanceof KbValidationError) throw e.at(i);
        throw e;
      }
      const p = c.provenance;
      r.subject[i] = c.subject[0];
      r.subject_type[i] = c.subject[1];
      r.relationship[i] = c.predicate[0];
      r.predicate_class[i] = c.predicate[1];
      r.object[i] = c.object[0];
      r.object_type[i] = c.object[1];
      r.source_type[i] = p.source_type;
      r.source_id[i] = p.source_id;
      const confidence = lastConfidence[0]!;
      r.confidence[i] = Number.isNaN(confidence) ? defaultConfidence(this.policy, p.source_type) : confidence;
      if (lastProvenanceKeys > 2) {
        const extra: Record<string, unknown> = {};
        let any = false;
        for (const k in p) {
          const v = (p as Record<string, unknown>)[k];
          if (k === 'source_type' || k === 'source_id' || v === undefined) continue;
          extra[k] = k === 'derived_from' ? [...(v as string[])] : v;
          any = true;
        }
        if (any) {
          r.provenance_extra ??= {};
          r.provenance_extra[i] = extra;
        }
      }
      if (c.payload !== undefined) {
        r.payload ??= {};
        r.payload[i] = structuredClone(c.payload);
      }
    }
    return r;
  }

  /** The run's write is over and nothing refers to it any more: its columns may serve the next batch. */
  recycle(run: ClaimRun): void {
    this.spareRun = run;
  }
}

/**
 * Checks claim i of a run against the registry (vocabulary constraints, payload schema) and the index
 * (derived_from, retracted sources). Returns the claim's warnings, or undefined for none. A strict base throws
 * on the first predicate-class or type-constraint violation, as bases always did; a non-strict one returns it
 * as a warning and the claim is stored. Shapes, payload schemas and references are never relaxed.
 */
function checkClaim(
  s: ReadSnapshot,
  r: ClaimRun,
  i: number,
  strict: boolean,
  retractedSources: ReadonlySet<string> | undefined,
): ClaimWarning[] | undefined {
  const registry = s.registry;
  let warnings: ClaimWarning[] | undefined;
  if (registry.constrainsClaims) {
    const predicate = normalizeToken(r.relationship[i]!);
    const found = registry.violations(
      normalizeToken(r.subject_type[i]!),
      predicate,
      normalizeToken(r.predicate_class[i]!),
      normalizeToken(r.object_type[i]!),
    );
    if (strict) {
      const refused = found.find((w) => w.code !== 'unknown_type');
      if (refused) throw new KbValidationError(refused.code, refused.field, refused.message);
    }
    registry.checkPayload(predicate, r.payload?.[i]);
    if (found.length) warnings = found;
  }
  const derived = r.provenance_extra?.[i]?.derived_from as string[] | undefined;
  if (derived) {
    for (let j = 0; j < derived.length; j++) {
      const parent = s.claimIndexOf(derived[j]!);
      const field = `provenance.derived_from[${j}]`;
      if (parent === undefined) {
        throw new KbValidationError('unknown_reference', field, `no claim with id '${derived[j]}'`);
      }
      if (s.claimStatus[parent] === RETRACTED) {
        throw new KbValidationError('retracted_reference', field, `claim '${derived[j]}' is retracted`);
      }
    }
  }
  if (retractedSources?.has(r.source_id[i]!)) {
    // Kept possible (a corrected source may come back), but never silent.
    warnings ??= [];
    warnings.push({
      code: 'source_was_retracted',
      field: 'provenance.source_id',
      message: `source '${r.source_id[i]}' was retracted before; this claim is stored as active`,
    });
  }
  return warnings;
}

/** Source ids ever retracted, per graph's retraction list; extended as the list grows (it only grows). */
const retractedCache = new WeakMap<readonly { source_id: string }[], { n: number; ids: Set<string> }>();
function retractedSources(list: readonly { source_id: string }[]): ReadonlySet<string> {
  let c = retractedCache.get(list);
  if (!c) {
    c = { n: 0, ids: new Set() };
    retractedCache.set(list, c);
  }
  for (; c.n < list.length; c.n++) c.ids.add(list[c.n]!.source_id);
  return c.ids;
}

/** A claim's warnings, by its position in the input (only claims that have any). */
export type RunWarnings = Map<number, ClaimWarning[]>;

/**
 * Checks every claim of the run (see checkClaim); a batch's errors name the index. Returns the warnings of the
 * claims that have any.
 */
export function checkClaims(
  s: ReadSnapshot & { readonly retractions: readonly { source_id: string }[] },
  r: ClaimRun,
  batch: boolean,
  strict: boolean,
): RunWarnings {
  const out: RunWarnings = new Map();
  const retracted = s.retractions.length ? retractedSources(s.retractions) : undefined;
  if (!s.registry.constrainsClaims && !r.provenance_extra && !retracted) return out;
  for (let i = 0; i < r.n; i++) {
    try {
      const w = checkClaim(s, r, i, strict, retracted);
      if (w) out.set(i, w);
    } catch (e) {
      if (batch && e instanceof KbValidationError) throw e.at(i);
      throw e;
    }
  }
  return out;
}

/** Per claim, the stored id: its own, or for a duplicate the id of the claim it duplicates. */
export function claimIdsOf(s: ReadSnapshot, applied: Int32Array): string[] {
  const ids = new Array<string>(applied.length);
  for (let i = 0; i < applied.length; i++) {
    const a = applied[i]!;
    ids[i] = s.claimIdOf(a >= 0 ? a : -2 - a);
  }
  return ids;
}

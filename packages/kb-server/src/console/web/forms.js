// @ts-check
// The side forms: add a claim (POST /claims) and retract a source (POST /retract) after a confirmation that previews
// the retraction's impact (GET /insights/impact); and the vocabulary that fills the form's suggestions.
import { api, fetchClaim } from './api.js';
import { $, currentEntity, enc, h } from './dom.js';
import { showEntity } from './entity.js';
import { loadHealth } from './health.js';

/** Predicate -> its class, from the base's schema: fills the class when a known predicate is chosen. */
let predicateClass = new Map();

/** Fills the form's suggestions (entity types, predicates, predicate classes) from GET /schema. */
export async function loadVocabulary() {
  try {
    const schema = await api('/schema');
    /** @type {Set<string>} */
    const types = new Set(schema.entity_types.map((/** @type {any} */ t) => t.type));
    /** @type {Map<string, string>} */
    const preds = new Map(schema.predicates.map((/** @type {any} */ p) => [p.predicate, p.predicate_class]));
    for (const [name, spec] of Object.entries(
      /** @type {Record<string, any>} */ (schema.registered?.predicates ?? {}),
    )) {
      for (const t of [...(spec.subject_types ?? []), ...(spec.object_types ?? [])]) types.add(t);
      if (!preds.has(name)) preds.set(name, spec.class ?? spec.predicate_class ?? '');
    }
    $('#entity-types').replaceChildren(...[...types].sort().map((t) => h('option', { value: t })));
    $('#predicates').replaceChildren(...[...preds.keys()].sort().map((p) => h('option', { value: p })));
    $('#predicate-classes').replaceChildren(
      ...[...new Set([...preds.values()].filter(Boolean))].sort().map((c) => h('option', { value: c })),
    );
    predicateClass = preds;
  } catch {
    /* the form still works with free text */
  }
}

/**
 * @param {HTMLElement} el
 * @param {boolean} ok
 * @param {string} text
 */
function say(el, ok, text) {
  el.className = `result ${ok ? 'ok' : 'err'}`;
  el.textContent = text;
}

/** @param {SubmitEvent} e */
async function submitClaim(e) {
  e.preventDefault();
  const f = /** @type {HTMLFormElement} */ (e.target);
  const out = $('#claim-result');
  /** @type {Record<string, unknown>} */
  const body = {
    subject: [f.subject_name.value.trim(), f.subject_type.value.trim()],
    predicate: [f.predicate.value.trim(), f.predicate_class.value.trim()],
    object: [f.object_name.value.trim(), f.object_type.value.trim()],
    source_type: f.source_type.value,
    source_id: f.source_id.value.trim(),
  };
  if (f.confidence.value !== '') body.confidence = Number(f.confidence.value);
  const button = /** @type {HTMLButtonElement} */ (f.querySelector('button'));
  button.disabled = true;
  try {
    const res = await fetchClaim(body);
    say(
      out,
      true,
      res.duplicate
        ? `Already recorded from this source (${res.claim.claim_id}).`
        : `Added ${res.claim.claim_id}: ${res.claim.subject[0]} ${res.claim.predicate[0]} ${res.claim.object[0]}.` +
            // A non-strict base stores what breaks the vocabulary, and says so.
            (res.claim.warnings?.length
              ? ` Warnings: ${res.claim.warnings.map((/** @type {any} */ w) => `${w.field}: ${w.message}`).join('; ')}.`
              : ''),
    );
    f.object_name.value = '';
    f.source_id.value = '';
    await loadHealth();
    const cur = currentEntity();
    if (cur && (cur === res.claim.subject_id || cur === res.claim.object_id)) await showEntity(cur);
    else location.hash = `#/entity/${enc(res.claim.subject_id)}`;
  } catch (caught) {
    const err = /** @type {import('./api.js').ApiError} */ (caught);
    say(out, false, err.field ? `${err.field}: ${err.message.replace(/^.*?: /, '')}` : err.message);
  } finally {
    button.disabled = false;
  }
}

/**
 * The retraction's impact, previewed in the confirmation dialog (GET /insights/impact: nothing is written).
 * @param {string} source_id
 * @param {boolean} cascade
 */
async function showImpact(source_id, cascade) {
  const out = $('#confirm-impact');
  out.textContent = 'Checking what this would change…';
  try {
    const im = await api(`/insights/impact/${encodeURIComponent(source_id)}?cascade=${cascade}`);
    /**
     * @param {number} k
     * @param {string} one
     * @param {string} [many]
     */
    const n = (k, one, many = `${one}s`) => `${k} ${k === 1 ? one : many}`;
    const parts = [`Would retract ${n(im.retracted_claim_ids.length, 'claim')}`];
    if (cascade) parts.push(`degrade ${n(im.degraded_claim_ids.length, 'derived claim')}`);
    const orphans = im.orphaned_entities;
    parts.push(
      `leave ${n(orphans.length, 'entity', 'entities')} with no active claim${
        orphans.length
          ? ` (${orphans
              .slice(0, 5)
              .map((/** @type {any} */ e) => e.name)
              .join(', ')}${orphans.length > 5 ? ', …' : ''})`
          : ''
      }`,
    );
    const gone = im.weakened_relationships.filter((/** @type {any} */ r) => r.sources_after === 0).length;
    const single = im.weakened_relationships.length - gone;
    parts.push(`remove ${n(gone, 'relationship')} and leave ${n(single, 'relationship')} on a single source.`);
    out.textContent = parts.join(', ');
  } catch (e) {
    const err = /** @type {import('./api.js').ApiError} */ (e);
    out.textContent = err.status === 404 ? `No source “${source_id}” in this base: nothing to retract.` : err.message;
  }
}

/**
 * @param {SubmitEvent} e
 * @param {() => void} onRetracted
 */
async function submitRetraction(e, onRetracted) {
  e.preventDefault();
  const f = /** @type {HTMLFormElement} */ (e.target);
  const out = $('#retract-result');
  const source_id = f.source_id.value.trim();
  $('#confirm-text').textContent =
    `Retract every claim from “${source_id}”${f.cascade.checked ? ' and degrade claims derived from them' : ''}? Reason: ${f.reason.value.trim()}`;
  const dialog = /** @type {HTMLDialogElement} */ ($('#confirm-dialog'));
  dialog.returnValue = '';
  dialog.showModal();
  showImpact(source_id, f.cascade.checked);
  await new Promise((r) => dialog.addEventListener('close', r, { once: true }));
  if (dialog.returnValue !== 'ok') {
    say(out, true, 'Cancelled; nothing retracted.');
    return;
  }
  try {
    const r = await api('/retract', {
      method: 'POST',
      body: { source_id, reason: f.reason.value.trim(), cascade: f.cascade.checked },
    });
    say(
      out,
      true,
      `Retracted ${r.claim_ids.length} claim(s)${r.degraded_claim_ids.length ? `, degraded ${r.degraded_claim_ids.length}` : ''}.`,
    );
    f.reset();
    await loadHealth();
    onRetracted();
  } catch (err) {
    say(out, false, /** @type {Error} */ (err).message);
  }
}

/**
 * Wires the forms; `onRetracted` redraws the current view after a retraction.
 * @param {() => void} onRetracted
 */
export function initForms(onRetracted) {
  const form = /** @type {HTMLFormElement} */ ($('#claim-form'));
  form.predicate.addEventListener('change', (/** @type {any} */ e) => {
    const cls = predicateClass.get(e.target.value.trim());
    if (cls && !form.predicate_class.value.trim()) form.predicate_class.value = cls;
  });
  form.addEventListener('submit', submitClaim);
  $('#retract-form').addEventListener('submit', (e) => submitRetraction(/** @type {SubmitEvent} */ (e), onRetracted));
}

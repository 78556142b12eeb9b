// @ts-check
// The entity view: the entity's head (names, counts, narrative), its relationship graph, its claims (filterable;
// a row opens the claim's provenance trail) and its timeline.
import { api } from './api.js';
import { $, colorOf, enc, fmtDate, h, main, s } from './dom.js';
import { currentGraph, drawGraph } from './graph.js';
import { sourceCell } from './provenance-link.js';
import { timelineChart } from './timeline-chart.js';
import { colourControl } from './topics.js';
import { views } from './views.js';

/** @typedef {{ depth?: number, all?: boolean }} EntityViewOptions */

/**
 * Shows entity `id` (GET /entities/{id}, its context to `depth` hops and its claims, retracted ones with `all`).
 * @param {string} id
 * @param {EntityViewOptions} [opts]
 */
export async function showEntity(id, opts = {}) {
  const depth = opts.depth ?? 2;
  let entity, frame, claims;
  try {
    [entity, frame, claims] = await Promise.all([
      api(`/entities/${enc(id)}`),
      api(`/entities/${enc(id)}/context?depth=${depth}`),
      api(`/entities/${enc(id)}/claims?limit=200${opts.all ? '&status=all' : ''}`),
    ]);
  } catch (e) {
    const err = /** @type {import('./api.js').ApiError} */ (e);
    main.replaceChildren(
      h('div', {
        class: 'error-banner',
        text: err.status === 404 ? `No entity “${id}” (it may have been retracted).` : err.message,
      }),
    );
    return;
  }
  /** @param {EntityViewOptions} changes */
  const reopen = (changes) => showEntity(id, { ...opts, ...changes });
  const auditCard = h('section', { class: 'card', id: 'audit-view', hidden: true });
  const timelineCard = h('section', { class: 'card', id: 'timeline-view' }, h('h2', { text: 'Timeline' }));
  main.replaceChildren(
    entityHead(entity, frame, depth),
    graphCard(entity, frame, depth, reopen),
    claimsCard(claims, entity.id, opts, reopen, auditCard),
    auditCard,
    timelineCard,
  );
  drawGraph(entity, frame);
  showTimeline(entity.id, timelineCard);
  // Pre-fill the claim form's subject with this entity: the usual next step is adding to it.
  const f = /** @type {HTMLFormElement} */ ($('#claim-form'));
  if (!f.subject_name.value) {
    f.subject_name.value = entity.name;
    f.subject_type.value = entity.type;
  }
}

/**
 * The entity's names, id, counts and narrative.
 * @param {any} entity
 * @param {any} frame
 * @param {number} depth
 */
function entityHead(entity, frame, depth) {
  const rels = frame.direct_relationships;
  return h(
    'section',
    { class: 'card', id: 'entity-view', 'data-entity': entity.id },
    h(
      'div',
      { class: 'entity-head' },
      h(
        'div',
        {},
        h(
          'h1',
          {},
          entity.name,
          ' ',
          h('span', {
            class: 'badge',
            style: `background:${colorOf(entity.type)}1a;color:${colorOf(entity.type)}`,
            text: entity.type,
          }),
        ),
        h('div', { class: 'id', text: entity.id }),
        h(
          'div',
          { class: 'meta' },
          h('span', {}, h('b', { text: entity.claim_count }), ' claims'),
          h('span', {}, h('b', { text: entity.source_count }), ' sources'),
          h('span', {}, h('b', { text: rels.length }), ' relationships'),
          h('span', {}, h('b', { text: frame.entities.length }), ` entities within ${depth} hops`),
        ),
      ),
    ),
    entity.aliases.length > 1
      ? h('div', { class: 'aliases muted', text: `Also written as: ${entity.aliases.join(', ')}` })
      : null,
    h('p', { class: 'narrative', text: frame.narrative }),
  );
}

/**
 * The graph's card: colour and depth choices, the graph's frame and its legend.
 * @param {any} entity
 * @param {any} frame
 * @param {number} depth
 * @param {(changes: EntityViewOptions) => void} reopen
 */
function graphCard(entity, frame, depth, reopen) {
  const depthSel = h(
    'select',
    {
      class: 'depth',
      'aria-label': 'Graph depth',
      onchange: (/** @type {any} */ e) => reopen({ depth: Number(e.target.value) }),
    },
    [1, 2, 3].map((d) => h('option', { value: d, selected: d === depth, text: `${d} hop${d > 1 ? 's' : ''}` })),
  );
  const types = [...new Set([entity.type, ...frame.entities.map((e) => e.type)])];
  return h(
    'section',
    { class: 'card graph-card' },
    h(
      'header',
      {},
      h('h2', { text: 'Relationships' }),
      h('span', { class: 'inline' }, colourControl(views, currentGraph), depthSel),
    ),
    h('div', {
      id: 'graph',
      role: 'img',
      'aria-label': `Graph of ${entity.name} and ${frame.entities.length} related entities`,
    }),
    h(
      'div',
      { class: 'legend' },
      types.map((t) => h('span', {}, h('i', { style: `background:${colorOf(t)}` }), t)),
      h('span', {
        text: 'click a node to open it · solid edge: direct relationship (width = confidence) · dashed: reached through it',
      }),
    ),
  );
}

/**
 * The claims table with its predicate filter and the choice to include retracted and degraded claims.
 * @param {any} claims the entity's claims (GET /entities/{id}/claims)
 * @param {string} focalId
 * @param {EntityViewOptions} opts
 * @param {(changes: EntityViewOptions) => void} reopen
 * @param {HTMLElement} auditCard where a clicked row's provenance trail is shown
 */
function claimsCard(claims, focalId, opts, reopen, auditCard) {
  const predicates = [...new Set(claims.claims.map((/** @type {any} */ c) => c.predicate[0]))].sort();
  const filter = h(
    'select',
    { 'aria-label': 'Filter by predicate', onchange: () => renderRows() },
    h('option', { value: '', text: 'all predicates' }),
    predicates.map((p) => h('option', { value: p, text: p })),
  );
  const showAll = h(
    'label',
    { class: 'inline small' },
    h('input', {
      type: 'checkbox',
      checked: !!opts.all,
      onchange: (/** @type {any} */ e) => reopen({ all: e.target.checked }),
    }),
    'include retracted / degraded',
  );
  const tbody = h('tbody');
  const renderRows = () => {
    const p = filter.value;
    const rows = claims.claims.filter((/** @type {any} */ c) => !p || c.predicate[0] === p);
    tbody.replaceChildren(...rows.map((/** @type {any} */ c) => claimRow(c, focalId, auditCard)));
    if (!rows.length) tbody.append(h('tr', {}, h('td', { colspan: 5, class: 'empty', text: 'No claims.' })));
  };
  renderRows();
  return h(
    'section',
    { class: 'card' },
    h(
      'div',
      { class: 'toolbar' },
      h('h2', { style: 'margin:0', text: `Claims (${claims.total})` }),
      h('div', { class: 'inline' }, filter, showAll),
    ),
    h(
      'table',
      { id: 'claims-table' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Claim', 'Confidence', 'Status', 'Source', 'Recorded (UTC)'].map((t) => h('th', { text: t })),
        ),
      ),
      tbody,
    ),
  );
}

/**
 * An end of a claim: bold when it is the entity shown, else a link to its entity.
 * @param {[string, string]} pair
 * @param {string} eid
 * @param {string} focal
 */
const side = (pair, eid, focal) =>
  eid === focal ? h('b', { text: pair[0] }) : h('a', { href: `#/entity/${enc(eid)}`, text: pair[0] });

/**
 * A claim's row; clicking it (not a link in it) shows its provenance trail in `auditCard`.
 * @param {any} c
 * @param {string} focalId
 * @param {HTMLElement} auditCard
 */
function claimRow(c, focalId, auditCard) {
  return h(
    'tr',
    {
      class: c.status,
      'data-claim': c.claim_id,
      title: 'Click for the claim’s provenance trail',
      onclick: (/** @type {MouseEvent} */ e) => {
        if (/** @type {Element} */ (e.target).closest('a')) return;
        showAudit(c.claim_id, auditCard);
      },
    },
    h(
      'td',
      { class: 'triple' },
      side(c.subject, c.subject_id, focalId),
      ' ',
      h('span', { class: 'pred', title: c.predicate[1], text: c.predicate[0] }),
      ' ',
      side(c.object, c.object_id, focalId),
    ),
    h(
      'td',
      {},
      h(
        'div',
        { class: 'conf', title: String(c.confidence) },
        h('div', { class: 'bar' }, h('i', { style: `width:${Math.round(c.confidence * 100)}%` })),
        h('span', { class: 'small', text: c.confidence.toFixed(2) }),
      ),
    ),
    h('td', {}, h('span', { class: `status ${c.status}`, text: c.status })),
    h('td', { class: 'src' }, sourceCell(h, c.provenance)),
    h('td', { class: 'small muted', text: fmtDate(c.created_at) }),
  );
}

// A claim's provenance trail (GET /claims/{id}/audit): source, what it derives from, what derives from it,
// corroboration by other sources, and its retraction or degradation with the reason.
/**
 * @param {string} claimId
 * @param {HTMLElement} card
 */
async function showAudit(claimId, card) {
  card.hidden = false;
  card.replaceChildren(h('h2', { text: `Audit of ${claimId}` }), h('p', { class: 'muted', text: 'Loading…' }));
  try {
    const a = await api(`/claims/${enc(claimId)}/audit`);
    const triple = (c) => `${c.subject[0]} ${c.predicate[0]} ${c.object[0]} (${c.provenance.source_id}, ${c.status})`;
    const list = (title, items, text) =>
      h(
        'div',
        {},
        h('h3', { text: `${title} (${items.length})` }),
        items.length
          ? h(
              'ul',
              {},
              items.map((x) => h('li', { text: text(x) })),
            )
          : h('p', { class: 'muted small', text: 'none' }),
      );
    card.replaceChildren(
      h('h2', { text: `Audit of ${claimId}` }),
      h('p', { text: `${triple(a.claim)} · source ${a.source.source_id} (${a.source.source_type})` }),
      list(
        'Events',
        a.events,
        (e) => `${fmtDate(e.at)} ${e.event}${e.reason ? ` by ${e.source_id}: ${e.reason}` : ''}`,
      ),
      list('Derived from', a.derived_from, (c) => `${'↑'.repeat(c.depth)} ${triple(c)}`),
      list('Derived claims', a.dependants, (c) => `${'↓'.repeat(c.depth)} ${triple(c)}`),
      list('Corroborating claims', a.corroborating, triple),
    );
  } catch (/** @type {any} */ err) {
    card.replaceChildren(h('div', { class: 'error-banner', text: err.message }));
  }
}

// The entity's timeline (GET /insights/evolution/{id}): claims added, retracted and degraded, oldest first.
/**
 * @param {string} id
 * @param {HTMLElement} card
 */
async function showTimeline(id, card) {
  try {
    const ev = await api(`/insights/evolution/${enc(id)}`);
    const rows = ev.events.slice(-50).reverse();
    card.append(
      timelineChart(s, ev.events, fmtDate),
      h('p', {
        class: 'muted small',
        text: `${ev.events.length} events over ${ev.relationships.length} relationships; newest first${ev.events.length > 50 ? ' (last 50)' : ''}.`,
      }),
      h(
        'ul',
        { class: 'timeline' },
        rows.map((e) => h('li', { 'data-event': e.event, text: `${fmtDate(e.at)} · ${e.event} · ${e.claim_id}` })),
      ),
    );
  } catch (/** @type {any} */ err) {
    card.append(h('p', { class: 'muted small', text: err.message }));
  }
}

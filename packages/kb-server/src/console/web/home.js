// @ts-check
// The home view (most-claimed entities, predicted links, confidence alerts) and the search results view.
import { api } from './api.js';
import { enc, entityLink, h, main } from './dom.js';

/** The overview: GET /entities, /insights/bridges and /insights/gaps. */
export async function showHome() {
  main.replaceChildren(h('div', { class: 'card' }, h('p', { class: 'muted', text: 'Loading…' })));
  const [top, bridges, gaps] = await Promise.all([
    api('/entities?limit=12'),
    api('/insights/bridges?top_k=8'),
    api('/insights/gaps?limit=8'),
  ]);
  main.replaceChildren(
    h(
      'section',
      { class: 'card' },
      h('h1', { text: 'Overview' }),
      h('p', { class: 'muted', text: 'Search for an entity above, or start from the most-claimed entities below.' }),
    ),
    h(
      'div',
      { class: 'grid2' },
      h(
        'section',
        { class: 'card' },
        h('h2', { text: 'Most-claimed entities' }),
        top.results.length
          ? h(
              'ul',
              { class: 'list', id: 'top-entities' },
              top.results.map((e) =>
                h(
                  'li',
                  {},
                  entityLink(e),
                  h('span', { class: 'muted small', text: `${e.claim_count} claim${e.claim_count === 1 ? '' : 's'}` }),
                ),
              ),
            )
          : h('p', { class: 'empty', text: 'No claims yet: add the first one with the form.' }),
      ),
      h(
        'section',
        { class: 'card' },
        // Deliberate likeness: each card (links, alerts) is written out as the page shows it.
        h('h2', { text: 'Predicted links' }),
        bridges.bridges.length
          ? h(
              'ul',
              { class: 'list' },
              bridges.bridges.map((b) =>
                h(
                  'li',
                  {},
                  h('span', {}, entityLink(b.source), ' ↔ ', entityLink(b.target)),
                  h('span', {
                    class: 'muted small',
                    title: b.reason,
                    text: `${b.suggested_predicate ?? 'link'} · ${b.score.toFixed(2)}`,
                  }),
                ),
              ),
            )
          : h('p', { class: 'empty', text: 'No predictions yet (needs shared neighbours).' }),
      ),
    ),
    h(
      'section',
      { class: 'card' },
      // Deliberate likeness: each card (links, alerts) is written out as the page shows it.
      h('h2', { text: 'Confidence alerts' }),
      gaps.alerts.length
        ? h(
            'ul',
            { class: 'list' },
            gaps.alerts.map((a) =>
              h(
                'li',
                {},
                entityLink(a.entity),
                h(
                  'span',
                  { class: 'small' },
                  a.alerts.map((x) =>
                    h('span', { class: 'status degraded', style: 'margin-left:4px', text: x.replace('_', ' ') }),
                  ),
                ),
              ),
            ),
          )
        : h('p', { class: 'empty', text: 'No alerts.' }),
    ),
  );
}

/**
 * Claims that answer the query by meaning and words (GET /search), each end a link to its entity.
 * @param {{ pending: number, results: { claim: any }[] }} found
 */
function claimResults(found) {
  /**
   * @param {[string, string]} pair
   * @param {string} id
   */
  const end = (pair, id) => entityLink({ id, name: pair[0], type: pair[1] });
  return h(
    'section',
    { class: 'card', id: 'claim-results' },
    h('h2', { text: 'Claims' }),
    found.pending
      ? h('p', {
          class: 'muted small',
          text: `${found.pending} claims not indexed by meaning yet (found by words meanwhile)`,
        })
      : null,
    found.results.length
      ? h(
          'ul',
          { class: 'list' },
          found.results.map((r) =>
            h(
              'li',
              {},
              end(r.claim.subject, r.claim.subject_id),
              ` ${r.claim.predicate[0].replace(/_/g, ' ')} `,
              end(r.claim.object, r.claim.object_id),
              h('span', { class: 'muted small', text: ` · confidence ${r.claim.confidence.toFixed(2)}` }),
            ),
          ),
        )
      : h('p', { class: 'empty', text: 'No claim matches.' }),
  );
}

/**
 * Entities and claims that match `q` (GET /entities and /search).
 * @param {string} q
 */
export async function showResults(q) {
  const [r, found] = await Promise.all([
    api(`/entities?query=${enc(q)}&limit=50`),
    api(`/search?query=${enc(q)}&k=20`).catch(() => ({ results: [], pending: 0 })),
  ]);
  main.replaceChildren(
    claimResults(found),
    h(
      'section',
      { class: 'card' },
      h('h1', { text: `Results for “${q}”` }),
      h('p', { class: 'muted', text: `${r.total} entities` }),
      r.results.length
        ? h(
            'ul',
            { class: 'list' },
            r.results.map((e) =>
              h(
                'li',
                {},
                entityLink(e),
                h('span', { class: 'muted small', text: `${e.match} · ${e.claim_count} claims` }),
              ),
            ),
          )
        : h('p', { class: 'empty', text: 'Nothing matches.' }),
    ),
  );
}

// @ts-check
// The search box: suggestions as one types (GET /entities?query=), arrow keys to choose, Enter to open the chosen
// entity or, with none, the results page.
import { api } from './api.js';
import { $, colorOf, enc, h } from './dom.js';
import { showResults } from './home.js';

const search = /** @type {HTMLInputElement} */ ($('#search'));
const list = $('#suggestions');
/** @type {{ id: string, name: string, type: string, match: string, claim_count: number }[]} */
let hits = [];
let active = -1;
let searchSeq = 0;

function renderSuggestions() {
  list.replaceChildren(
    ...hits.map((hit, i) =>
      h(
        'li',
        {
          role: 'option',
          'aria-selected': i === active ? 'true' : 'false',
          'data-id': hit.id,
          /** @param {MouseEvent} e */
          onmousedown: (e) => {
            e.preventDefault();
            openEntity(hit.id);
          },
        },
        h(
          'span',
          {},
          h('span', {
            class: 'badge',
            style: `background:${colorOf(hit.type)}1a;color:${colorOf(hit.type)}`,
            text: hit.type,
          }),
          ' ',
          hit.name,
        ),
        h('span', {
          class: 'why',
          text: `${hit.match === 'all' ? '' : `${hit.match} · `}${hit.claim_count} claim${hit.claim_count === 1 ? '' : 's'}`,
        }),
      ),
    ),
  );
  list.hidden = hits.length === 0;
}

/** @param {string} id */
function openEntity(id) {
  hits = [];
  renderSuggestions();
  search.value = '';
  location.hash = `#/entity/${enc(id)}`;
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let timer;
async function suggest() {
  const q = search.value.trim();
  const seq = ++searchSeq;
  if (!q) {
    hits = [];
    renderSuggestions();
    return;
  }
  try {
    const r = await api(`/entities?query=${enc(q)}&limit=8`);
    if (seq !== searchSeq) return;
    hits = r.results;
    active = hits.length ? 0 : -1;
    renderSuggestions();
  } catch {
    hits = [];
    renderSuggestions();
  }
}

/** @param {KeyboardEvent} e */
function onKey(e) {
  if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
    e.preventDefault();
    if (!hits.length) return;
    active = (active + (e.key === 'ArrowDown' ? 1 : hits.length - 1)) % hits.length;
    renderSuggestions();
  } else if (e.key === 'Enter') {
    e.preventDefault();
    const chosen = hits[active];
    if (chosen) openEntity(chosen.id);
    else if (search.value.trim()) showResults(search.value.trim());
  } else if (e.key === 'Escape') {
    hits = [];
    renderSuggestions();
  }
}

/** Wires the search box. */
export function initSearch() {
  search.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(suggest, 120);
  });
  search.addEventListener('keydown', onKey);
  search.addEventListener('blur', () =>
    setTimeout(() => {
      list.hidden = true;
    }, 100),
  );
  search.addEventListener('focus', () => {
    if (hits.length) list.hidden = false;
  });
}

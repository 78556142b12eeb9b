// @ts-check
// Evident KB web console. Talks only to the REST API under /api/v1. DOM is built with textContent
// (never innerHTML with data), so names from claims cannot inject markup. This module routes the address
// (#/topics, #/query, #/entity/{id}, else the overview) and starts the page; each view has its own module.
import { currentEntity, h, main } from './dom.js';
import { showEntity } from './entity.js';
import { initForms, loadVocabulary } from './forms.js';
import { loadHealth } from './health.js';
import { showHome } from './home.js';
import { showQuery } from './query.js';
import { initSearch } from './search.js';
import { showTopics } from './topics.js';
import { views } from './views.js';

async function route() {
  try {
    const id = currentEntity();
    if (location.hash === '#/topics') await showTopics(main, views);
    else if (location.hash === '#/query') showQuery(main, views);
    else if (id) await showEntity(id);
    else await showHome();
  } catch (e) {
    main.replaceChildren(h('div', { class: 'error-banner', text: /** @type {Error} */ (e).message }));
  }
}

initSearch();
initForms(route);
window.addEventListener('hashchange', route);
loadHealth();
loadVocabulary();
route();

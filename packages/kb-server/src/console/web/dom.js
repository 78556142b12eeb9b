// @ts-check
// DOM helpers shared by the console's views. DOM is built with textContent (never innerHTML with data), so names
// from claims cannot inject markup.

/**
 * The page's element for a selector; the page's markup (index.html) always has the ones the console asks for.
 * @param {string} sel
 * @returns {HTMLElement}
 */
export const $ = (sel) => /** @type {HTMLElement} */ (document.querySelector(sel));

/** @typedef {Record<string, unknown>} Attrs */

/**
 * h('div', { class: 'x', onclick }, child, 'text', ...): `on*` attributes are listeners, `text` the text content,
 * `svg: true` (or the tag svg) an SVG element; null, undefined and false attributes and children are left out.
 * Typed as an HTMLElement: most callers build HTML, and SVG elements share what the console uses of them.
 * @param {string} tag
 * @param {Attrs} [attrs]
 * @param {...any} children nodes, text, numbers, or arrays of them (nested)
 * @returns {any}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElementNS(
    tag === 'svg' || attrs.svg ? 'http://www.w3.org/2000/svg' : 'http://www.w3.org/1999/xhtml',
    tag,
  );
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'svg' || v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), /** @type {EventListener} */ (v));
    else if (k === 'text') el.textContent = /** @type {string} */ (v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat())
    if (c !== null && c !== undefined && c !== false)
      el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

/**
 * An SVG element (h with svg: true).
 * @param {string} tag
 * @param {Attrs} [attrs]
 * @param {...any} children
 * @returns {any}
 */
export const s = (tag, attrs = {}, ...children) => h(tag, { ...attrs, svg: true }, ...children);

export const enc = encodeURIComponent;
/** @param {number} x */
export const pct = (x) => `${Math.round(x * 100)}%`;
/** @param {string} iso */
export const fmtDate = (iso) => new Date(iso).toISOString().slice(0, 16).replace('T', ' ');

/** @type {Record<string, string>} */
const TYPE_COLORS = {
  gene: '#2557d6',
  protein: '#7a5af8',
  disease: '#d92d20',
  drug: '#12805c',
  compound: '#0e9384',
  pathway: '#dc6803',
  phenotype: '#c11574',
  variant: '#6172f3',
  cell_type: '#ca8504',
  tissue: '#a15c07',
};
/** @param {string} type */
export const colorOf = (type) => TYPE_COLORS[type] ?? '#667085';

/** @typedef {{ id: string, name: string, type: string }} EntityRef */

/**
 * A link to an entity's view, with its type as a coloured badge.
 * @param {EntityRef} e
 */
export function entityLink(e) {
  return h(
    'a',
    { href: `#/entity/${enc(e.id)}` },
    h('span', { class: 'badge', style: `background:${colorOf(e.type)}1a;color:${colorOf(e.type)}`, text: e.type }),
    ' ',
    e.name,
  );
}

/** The page's view area. */
export const main = $('#main');

/** The entity id of the current address (#/entity/{id}), or null. */
export function currentEntity() {
  const m = /^#\/entity\/(.+)$/.exec(location.hash);
  return m?.[1] ? decodeURIComponent(m[1]) : null;
}

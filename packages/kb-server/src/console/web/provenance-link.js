// @ts-check
// A claim's source as a link back to where it came from: a claim exported from a discovery job carries the job's
// results address in `provenance.job_url`, and the claims table links its source id there. Only http(s)
// addresses become links (never javascript: or data:), and the text stays the source id.
export const LINK_FIELDS = ['job_url'];

/** The http(s) address the provenance links to, or null. */
export function sourceLinkOf(provenance) {
  for (const field of LINK_FIELDS) {
    const value = provenance?.[field];
    if (typeof value !== 'string' || value === '') continue;
    try {
      const url = new URL(value);
      if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
    } catch {
      /* not an absolute URL: no link */
    }
  }
  return null;
}

/** The source cell's content, built with the page's `h` (textContent only): the source id, linked when it can be. */
export function sourceCell(h, provenance) {
  const href = sourceLinkOf(provenance);
  const id = href
    ? h(
        'div',
        {},
        h('a', {
          href,
          target: '_blank',
          rel: 'noopener noreferrer',
          title: 'Open the results this claim came from',
          text: provenance.source_id,
        }),
      )
    : h('div', { text: provenance.source_id });
  return [id, h('div', { class: 'stype', text: provenance.source_type })];
}

// The few HTML pages the API serves to a person with a browser: the service's front door (`/`) and the page a
// refused results link answers with. Plain, self-contained, no scripts.
import type { FastifyRequest } from 'fastify';
import type { ErrorBody } from '@evident/contract';

/** Pages run nothing and load nothing; a results link in the address bar is not sent on as a Referer. */
export const PAGE_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
} as const;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A browser's navigation asks for text/html before JSON; API clients (curl, fetch, the client) do not. */
export function prefersHtml(req: FastifyRequest): boolean {
  const accept = String(req.headers.accept ?? '');
  const html = accept.indexOf('text/html');
  if (html < 0) return false;
  const json = accept.indexOf('application/json');
  return json < 0 || html < json;
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:42rem;margin:3rem auto;padding:0 1rem;color:#222}
code{background:#f3f3f3;padding:0 .25em;border-radius:3px}h1{font-size:1.4rem}</style></head>
<body>${body}</body></html>
`;
}

export function errorPage(status: number, error: ErrorBody['error']): string {
  return page(
    `Results link refused (${status})`,
    `<h1>This results link cannot be opened</h1>
<p>${escapeHtml(error.message)}</p>
<p>Error <code>${escapeHtml(error.code)}</code> (HTTP ${status}). The owner of the job makes a new link with their
API key: <code>POST /v1/results/{job_id}/links</code>.</p>`,
  );
}

export interface HomeDocument {
  service: string;
  message: string;
  docs_url: string;
  openapi_url: string;
  health_url: string;
}

/** What `/` says, to a program (JSON) or a person (the same as a page). */
export function homeDocument(origin: string): HomeDocument {
  return {
    service: 'Evident discovery job service',
    message:
      "The API is under /v1 and needs Authorization: Bearer <API key>. A completed job's results open in a " +
      'browser through a signed link: POST /v1/results/{job_id}/links with the key, or GET ' +
      '/v1/jobs/{job_id}?results_link=true.',
    docs_url: `${origin}/v1/docs`,
    openapi_url: `${origin}/v1/openapi.json`,
    health_url: `${origin}/healthz`,
  };
}

export function homePage(doc: HomeDocument, origin: string): string {
  const link = (url: string) => `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`;
  return page(
    doc.service,
    `<h1>${escapeHtml(doc.service)}</h1>
<p>This is an HTTP/JSON API: target discovery and compound generation jobs under <code>/v1</code>. Every request
needs <code>Authorization: Bearer &lt;API key&gt;</code>, so its addresses do not open in a browser as they are.</p>
<ul><li>API documentation: ${link(doc.docs_url)}</li><li>OpenAPI document: ${link(doc.openapi_url)}</li></ul>
<p>To look at a completed job's results in a browser, ask for a signed link with your key, then open it (it lasts an
hour unless you ask for another time, and can be revoked):</p>
<pre><code>curl -s -X POST -H "Authorization: Bearer $KEY" ${escapeHtml(origin)}/v1/results/JOB_ID/links</code></pre>`,
  );
}

// @ts-check
// The console's calls to the REST API under /api/v1, with the bearer token asked for once when the API answers 401.
const API = '/api/v1';

/** An error answer of the API: its status, stable code, the field it names and any data it carries. */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {any} body the error body ({ error: { code, message, details, data } }), or null
   */
  constructor(status, body) {
    super(body?.error?.message ?? `HTTP ${status}`);
    this.status = status;
    /** @type {string | undefined} */
    this.code = body?.error?.code;
    /** @type {string | undefined} */
    this.field = body?.error?.details?.field;
    // Extra data the error carries (a PROFILE stopped by a budget: `plan`).
    this.data = body?.error?.data;
  }
}

let token = sessionStorage.getItem('kb-token') || '';

/** @typedef {{ method?: string, body?: unknown, retried?: boolean }} ApiOptions */

/**
 * GET (or `method`) `path` under /api/v1 with an optional JSON body; resolves to the JSON answer, rejects with an
 * ApiError.
 * @param {string} path
 * @param {ApiOptions} [options]
 * @returns {Promise<any>}
 */
export async function api(path, options = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(API + path, {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const body = res.headers.get('content-type')?.includes('json') ? await res.json() : null;
  if (res.status === 401 && !options.retried) {
    token = await askToken();
    return api(path, { ...options, retried: true });
  }
  if (!res.ok) throw new ApiError(res.status, body);
  return body;
}

/**
 * POST /claims: the stored claim, and whether it was already recorded from that source (200, not 201).
 * @param {unknown} body
 * @returns {Promise<{ claim: any, duplicate: boolean }>}
 */
export async function fetchClaim(body) {
  /** @type {Record<string, string>} */
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(`${API}/claims`, { method: 'POST', headers, body: JSON.stringify(body) });
  if (res.status === 401) {
    token = await askToken();
    return fetchClaim(body);
  }
  const json = await res.json();
  if (!res.ok) throw new ApiError(res.status, json);
  return { claim: json, duplicate: res.status === 200 };
}

// Several requests may hit 401 at once (the page loads in parallel): they share one prompt.
/** @type {Promise<string> | null} */
let tokenPrompt = null;
function askToken() {
  tokenPrompt ??= promptToken().finally(() => {
    tokenPrompt = null;
  });
  return tokenPrompt;
}

/** @returns {Promise<string>} */
function promptToken() {
  const d = /** @type {HTMLDialogElement} */ (document.querySelector('#token-dialog'));
  return new Promise((resolve) => {
    d.addEventListener(
      'close',
      () => {
        const t = /** @type {HTMLInputElement} */ (document.querySelector('#token-input')).value.trim();
        sessionStorage.setItem('kb-token', t);
        resolve(t);
      },
      { once: true },
    );
    d.showModal();
  });
}

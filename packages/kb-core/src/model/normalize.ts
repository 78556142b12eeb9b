// Canonical forms. Entity ids are `${type}:${name}` with both parts normalised, so that
// resolve('BRCA1') === resolve(' brca1 ') and a gene and its protein product stay distinct entities.

const GREEK: Record<string, string> = {
  α: 'alpha',
  β: 'beta',
  γ: 'gamma',
  δ: 'delta',
  ε: 'epsilon',
  κ: 'kappa',
  λ: 'lambda',
  μ: 'mu',
  σ: 'sigma',
  ω: 'omega',
};
const DASHES = /[\u2010-\u2015\u2212]/g;
const SPACES = /\s+/g;

const nameCache = new Map<string, string>();

/** NFKC, unified dashes, Greek letters spelled out, trimmed, single spaces, lower case. */
export function normalizeName(raw: string): string {
  // ASCII without whitespace (most identifiers: gene symbols, accessions) only needs lower-casing: NFKC, the
  // dashes and the Greek letters are all outside ASCII. Cheaper than the cache, and keeps it small.
  let plain = true;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c <= 32 || c >= 127) {
      plain = false;
      break;
    }
  }
  if (plain) return raw.toLowerCase();
  const hit = nameCache.get(raw);
  if (hit !== undefined) return hit;
  const s = normalizeText(raw);
  // The cache is an optimisation for repeated names in big ingests; keep it bounded.
  if (nameCache.size > 500_000) nameCache.clear();
  nameCache.set(raw, s);
  return s;
}

/** normalizeName without its cache, for text that seldom repeats: a claim's or an entity's whole text on its way
 * to the search tokenizer. Cached, every document's text stayed in memory twice (raw and normalised) after its
 * tokens were indexed: 76,000 entries, ~10 MB at 46,000 claims (issue 37). */
export function normalizeText(raw: string): string {
  let s = raw.normalize('NFKC').replace(DASHES, '-').trim().replace(SPACES, ' ').toLowerCase();
  if (/[α-ω]/.test(s)) s = s.replace(/[α-ω]/g, (c) => GREEK[c] ?? c);
  return s;
}

/** Types and predicates: normalised like names, with spaces and dashes as underscores ('Cell Type' -> 'cell_type'). */
let lastToken = '';
let lastTokenNorm = '';
export function normalizeToken(raw: string): string {
  // Types and predicates repeat from claim to claim: a one-entry memo avoids most map lookups.
  if (raw === lastToken) return lastTokenNorm;
  lastToken = raw;
  const hit = tokenCache.get(raw);
  lastTokenNorm = hit !== undefined ? hit : normalizeTokenSlow(raw);
  return lastTokenNorm;
}

function normalizeTokenSlow(raw: string): string {
  const s = normalizeName(raw).replace(/[\s-]+/g, '_');
  if (tokenCache.size > 100_000) tokenCache.clear();
  tokenCache.set(raw, s);
  return s;
}
const tokenCache = new Map<string, string>();

export function entityId(type: string, canonicalName: string): string {
  return `${type}:${canonicalName}`;
}

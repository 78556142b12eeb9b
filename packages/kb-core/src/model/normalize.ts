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

// Types and predicates repeat from claim to claim in a few spellings, each claim's a string object of its own: a
// small direct-mapped memo, its slot picked from the length and three code units, answers most calls with one
// string compare, where the map below must first hash the fresh string (about half the cost of the three
// calls per applied claim; a one-entry memo missed whenever subject type, object type and predicate alternated).
// (256 slots: 63 spellings such as 'rel_0'..'rel_49' and five types share 4 slots; 64 slots shared 25.)
const MEMO_BITS = 8;
const memoRaw = new Array<string>(1 << MEMO_BITS).fill('');
const memoNorm = new Array<string>(1 << MEMO_BITS).fill('');

/** Types and predicates: normalised like names, with spaces and dashes as underscores ('Cell Type' -> 'cell_type'). */
export function normalizeToken(raw: string): string {
  const len = raw.length;
  // The last two units, the middle one and the length, mixed; a unit past either end reads NaN, taken as 0.
  const key =
    (raw.charCodeAt(len - 1) | 0) +
    Math.imul(raw.charCodeAt(len - 2) | 0, 31) +
    Math.imul(raw.charCodeAt(len >> 1) | 0, 961) +
    Math.imul(len, 29_791);
  const slot = Math.imul(key, 0x9e3779b1) >>> (32 - MEMO_BITS);
  if (memoRaw[slot] === raw) return memoNorm[slot]!;
  const hit = tokenCache.get(raw);
  const norm = hit !== undefined ? hit : normalizeTokenSlow(raw);
  memoRaw[slot] = raw;
  memoNorm[slot] = norm;
  return norm;
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

// Tokens for lexical and local-semantic retrieval. Hand-written because general-purpose tokenizers and
// stemmers (Porter and kin) split or mangle biomedical symbols: here `PARP1` stays `parp1` and also yields its
// family stem `parp`; `IL-6` yields `il6` (joined) and `il`; `BRCA1/2` yields `brca1` and `brca2`; Greek
// letters are spelled out by normalizeText (`TNF-α` -> `tnfalpha`, `tnf`, `alpha`).
import { normalizeText } from './normalize.js';

const STOP = new Set(
  (
    'a an the of for in on at to by with from and or not no is are was were be been being as that this these ' +
    'those it its which what who whom whose how does do did can could would should may might will there their ' +
    'any some all into than then also via about against between within without known reported show shows ' +
    'shown anything something me we our you your'
  ).split(' '),
);

/** Light English suffix stripping (an S-stemmer with a few verb/noun endings), never below 4 letters. */
export function stem(w: string): string {
  if (w.length <= 4 || /\d/.test(w)) return w;
  const rules: [string, string][] = [
    ['ies', 'y'],
    ['sses', 'ss'],
    ['ations', 'ate'],
    ['ation', 'ate'],
    ['itions', 'it'],
    ['ition', 'it'],
    ['ors', ''],
    ['or', ''],
    ['ers', ''],
    ['er', ''],
    ['ing', ''],
    ['ed', ''],
    ['es', ''],
    ['s', ''],
  ];
  for (const [suf, rep] of rules) {
    if (w.endsWith(suf) && w.length - suf.length + rep.length >= 4) {
      if (suf === 's' && (w.endsWith('ss') || w.endsWith('us') || w.endsWith('is'))) return w;
      return w.slice(0, w.length - suf.length) + rep;
    }
  }
  return w;
}

const PIECE = /[a-z0-9]+(?:[-/.'][a-z0-9]+)*/g;

/** Tokens of a text, in order, repeated tokens kept (BM25 counts them). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  const norm = normalizeText(text);
  for (const m of norm.matchAll(PIECE)) addPiece(m[0], out);
  return out;
}

function addPiece(piece: string, out: string[]): void {
  const parts = piece.split(/[-/.']/);
  if (parts.length > 1) {
    // BRCA1/2: a trailing bare number after a slash is a sibling of the symbol before it.
    if (piece.includes('/') && parts.every((p, i) => i === 0 || /^\d+$/.test(p)) && /\d$/.test(parts[0]!)) {
      const base = parts[0]!.replace(/\d+$/, '');
      addWord(parts[0]!, out);
      for (const p of parts.slice(1)) addWord(base + p, out);
      return;
    }
    const joined = parts.join('');
    if (joined.length <= 12 && /\d/.test(joined)) addWord(joined, out);
    for (const p of parts) addWord(p, out);
    return;
  }
  addWord(piece, out);
}

function addWord(w: string, out: string[]): void {
  if (w.length === 0 || STOP.has(w)) return;
  if (/^\d+$/.test(w)) {
    if (w.length > 1) out.push(w);
    return;
  }
  // A symbol with a number (PARP1, CYP3A4, IL6): the symbol, and its alphabetic family stem.
  const m = /^([a-z]{2,})(\d+[a-z]?\d*)$/.exec(w);
  if (m) {
    out.push(w);
    if (m[1]!.length >= 2) out.push(m[1]!);
    return;
  }
  out.push(stem(w));
}

/** Distinct tokens of a text. */
export function tokenSet(text: string): string[] {
  return [...new Set(tokenize(text))];
}

// Sentence splitting for scientific prose and chat text. A boundary is end punctuation followed by space
// and a capital, digit, quote or bracket, unless the word before is a known abbreviation (e.g., et al.,
// Fig., vs.) or a single initial. Blank lines and bullet/list lines always end a sentence.

const ABBREVIATIONS = new Set([
  'e.g',
  'i.e',
  'et al',
  'al',
  'fig',
  'figs',
  'vs',
  'cf',
  'approx',
  'ca',
  'dr',
  'prof',
  'mr',
  'mrs',
  'ms',
  'no',
  'ref',
  'refs',
  'suppl',
  'eq',
  'resp',
  'incl',
  'st',
  'vol',
  'p',
  'pp',
  'sp',
  'spp',
  'etc',
  'inc',
  'ltd',
  'co',
  'jr',
]);

export interface SentenceSpan {
  text: string;
  /** Offset of the sentence in the input. */
  start: number;
}

export function splitSentences(input: string): SentenceSpan[] {
  const out: SentenceSpan[] = [];
  // Paragraphs and list items first: a line break followed by a bullet, a number or a blank line ends a sentence.
  const blockRe = /\n\s*\n|\n(?=\s*(?:[-*•]|\d+[.)])\s)/g;
  let blockStart = 0;
  const blocks: [number, number][] = [];
  for (let m = blockRe.exec(input); m; m = blockRe.exec(input)) {
    blocks.push([blockStart, m.index]);
    blockStart = m.index + m[0].length;
  }
  blocks.push([blockStart, input.length]);
  for (const [bs, be] of blocks) {
    const block = input.slice(bs, be);
    // The lookbehind starts a match only at the first mark of a run: without it a run of n marks not followed by
    // a space is retried from each of its positions, n² steps (a 100k-dot run blocked the event loop ~40 s).
    const boundary = /(?<![.!?])([.!?]+)(["')\]]*)\s+(?=["'([]?[A-Z0-9α-ω])/g;
    let s = 0;
    for (let m = boundary.exec(block); m; m = boundary.exec(block)) {
      const end = m.index + m[1]!.length + m[2]!.length;
      if (m[1] === '.') {
        const word = wordBefore(block, s, m.index);
        if (
          ABBREVIATIONS.has(word) ||
          ABBREVIATIONS.has(word.replace(/\.$/, '')) ||
          /^[a-z]$/i.test(word) ||
          /(?:^|[^A-Za-z0-9_])et al$/i.test(block.slice(Math.max(s, m.index - 6), m.index))
        )
          continue;
      }
      push(out, block.slice(s, end), bs + s);
      s = m.index + m[0].length;
    }
    push(out, block.slice(s), bs + s);
  }
  return out;
}

/** Longer words are no abbreviation and no initial, so the look back stops there. */
const MAX_ABBREVIATION = 16;

/**
 * The lower-cased word (letters and inner dots, starting with a letter) that ends at `end`, or '' when none
 * or longer than MAX_ABBREVIATION. A backward scan of at most MAX_ABBREVIATION + 1 characters: the regex it
 * replaces, /([A-Za-z][A-Za-z.]*)$/ on the whole sentence so far, was quadratic in a long run of letters that
 * does not reach the end (e.g. a 100k-letter token followed by '1. '), ~9 s at 100k characters.
 */
export function wordBefore(text: string, from: number, end: number): string {
  let i = end;
  while (i > from && end - i <= MAX_ABBREVIATION && /[A-Za-z.]/.test(text[i - 1]!)) i--;
  if (end - i > MAX_ABBREVIATION) return '';
  while (i < end && text[i] === '.') i++;
  return text.slice(i, end).toLowerCase();
}

function push(out: SentenceSpan[], raw: string, offset: number): void {
  const lead = raw.length - raw.trimStart().length;
  const text = raw
    .trim()
    .replace(/^(?:[-*•]|\d+[.)])\s+/, '')
    .replace(/\s+/g, ' ');
  if (/[A-Za-z]/.test(text)) out.push({ text, start: offset + lead });
}

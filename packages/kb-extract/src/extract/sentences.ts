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
    const boundary = /([.!?]+)(["')\]]*)\s+(?=["'([]?[A-Z0-9α-ω])/g;
    let s = 0;
    for (let m = boundary.exec(block); m; m = boundary.exec(block)) {
      const end = m.index + m[1]!.length + m[2]!.length;
      if (m[1] === '.') {
        const before = block.slice(s, m.index);
        const word = /([A-Za-z][A-Za-z.]*)$/.exec(before)?.[1]?.toLowerCase() ?? '';
        if (
          ABBREVIATIONS.has(word) ||
          ABBREVIATIONS.has(word.replace(/\.$/, '')) ||
          /^[a-z]$/i.test(word) ||
          /\bet al$/i.test(before)
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

function push(out: SentenceSpan[], raw: string, offset: number): void {
  const lead = raw.length - raw.trimStart().length;
  const text = raw
    .trim()
    .replace(/^(?:[-*•]|\d+[.)])\s+/, '')
    .replace(/\s+/g, ' ');
  if (/[A-Za-z]/.test(text)) out.push({ text, start: offset + lead });
}

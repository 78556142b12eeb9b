// How texts are split into requests: in order, at most `size` texts and `maxChars` characters a request (a
// text longer than that goes alone).

/** [start, end) ranges over `texts`, covering all of them in order. */
export function batchRanges(texts: readonly string[], size: number, maxChars: number): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  let chars = 0;
  for (let i = 0; i < texts.length; i++) {
    const n = texts[i]!.length;
    if (i > start && (i - start >= size || chars + n > maxChars)) {
      out.push([start, i]);
      start = i;
      chars = 0;
    }
    chars += n;
  }
  if (start < texts.length) out.push([start, texts.length]);
  return out;
}

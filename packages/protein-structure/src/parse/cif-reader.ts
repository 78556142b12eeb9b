// A streaming reader of the first data block of a CIF 1.1 file (the syntax mmCIF uses): items, loops, quoted
// and semicolon-delimited values, comments. Rows go to a handler per category as they are read, so a large
// _atom_site never becomes millions of strings at once.

/** Unquoted `.` (inapplicable) and `?` (unknown) read as null; quoted they are the literal text. */
export type CifValue = string | null;

export interface CifRowHandler {
  /** Called once per row with the values in the order of `fields`. */
  row(values: readonly CifValue[]): void;
}

/** Given a category (`atom_site`) and its field names (`group_PDB`, ...), a handler, or undefined to skip it. */
export type CifCategoryOpener = (category: string, fields: readonly string[]) => CifRowHandler | undefined;

export class CifSyntaxError extends Error {}

const WS = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;

/**
 * The CIF tokens of `text`, one per next() (undefined at the end), skipping whitespace and comments; quoted() tells
 * whether the last token was a quoted value (not a keyword or `.`/`?`), line() where the tokenizer is.
 */
function cifTokenizer(text: string) {
  let pos = 0;
  let line = 1;
  let quoted = false;

  // The next token, or undefined at the end. `quoted` tells a quoted value from a keyword or `.`/`?`.
  function next(): string | undefined {
    for (;;) {
      while (pos < text.length && WS(text.charCodeAt(pos))) {
        if (text.charCodeAt(pos) === 10) line++;
        pos++;
      }
      if (pos >= text.length) return undefined;
      if (text.charCodeAt(pos) !== 35 /* # */) break;
      while (pos < text.length && text.charCodeAt(pos) !== 10) pos++;
    }
    const c = text.charCodeAt(pos);
    const atLineStart = pos === 0 || text.charCodeAt(pos - 1) === 10;
    if (c === 59 /* ; */ && atLineStart) {
      const close = text.indexOf('\n;', pos + 1);
      if (close === -1) throw new CifSyntaxError(`line ${line}: a ;-delimited text field is never closed`);
      const value = text
        .slice(pos + 1, close)
        .replace(/^\r?\n/, '')
        .replace(/\r$/, '');
      for (let i = pos; i < close + 2; i++) if (text.charCodeAt(i) === 10) line++;
      pos = close + 2;
      quoted = true;
      return value;
    }
    if (c === 39 || c === 34 /* ' " */) {
      // A quote closes only when followed by whitespace or the end (CIF 1.1), so `'N'-oxide'` is one value.
      const eol = text.indexOf('\n', pos);
      const limit = eol === -1 ? text.length : eol;
      let i = pos + 1;
      for (;;) {
        i = text.indexOf(text[pos]!, i);
        if (i === -1 || i >= limit) throw new CifSyntaxError(`line ${line}: a quoted value is never closed`);
        if (i + 1 >= text.length || WS(text.charCodeAt(i + 1))) break;
        i++;
      }
      const value = text.slice(pos + 1, i);
      pos = i + 1;
      quoted = true;
      return value;
    }
    const from = pos;
    while (pos < text.length && !WS(text.charCodeAt(pos))) pos++;
    quoted = false;
    return text.slice(from, pos);
  }
  return { next, quoted: () => quoted, line: () => line };
}

export function readCif(text: string, open: CifCategoryOpener): { block: string } {
  const tk = cifTokenizer(text);
  const cifValue = (t: string): CifValue => (!tk.quoted() && (t === '.' || t === '?') ? null : t);
  const isKeyword = (t: string) => !tk.quoted() && (t[0] === '_' || /^(loop_|data_|save_|global_|stop_)/i.test(t));

  let token = tk.next();
  if (token === undefined || tk.quoted() || !/^data_/i.test(token)) {
    throw new CifSyntaxError('the text does not start with a data_ block');
  }
  const block = token.slice(5);
  token = tk.next();

  // Consecutive single items of one category are gathered into one row.
  let itemCategory: string | undefined;
  let itemFields: string[] = [];
  let itemValues: CifValue[] = [];
  const flushItems = () => {
    if (itemCategory !== undefined) open(itemCategory, itemFields)?.row(itemValues);
    itemCategory = undefined;
    itemFields = [];
    itemValues = [];
  };

  while (token !== undefined) {
    if (!tk.quoted() && /^data_/i.test(token)) break; // first block only
    if (!tk.quoted() && /^loop_$/i.test(token)) {
      flushItems();
      const fields: string[] = [];
      let category: string | undefined;
      token = tk.next();
      while (token !== undefined && !tk.quoted() && token[0] === '_') {
        const [cat, name] = splitTag(token, tk.line());
        if (category !== undefined && cat !== category) {
          throw new CifSyntaxError(`line ${tk.line()}: loop mixes categories ${category} and ${cat}`);
        }
        category = cat;
        fields.push(name);
        token = tk.next();
      }
      if (category === undefined) throw new CifSyntaxError(`line ${tk.line()}: loop_ without field names`);
      const handler = open(category, fields);
      const values: CifValue[] = new Array(fields.length);
      let k = 0;
      while (token !== undefined && !isKeyword(token)) {
        values[k++] = cifValue(token);
        if (k === fields.length) {
          handler?.row(values);
          k = 0;
        }
        token = tk.next();
      }
      if (k !== 0)
        throw new CifSyntaxError(`loop of ${category}: the number of values is not a multiple of its fields`);
      continue;
    }
    if (!tk.quoted() && token[0] === '_') {
      const [cat, name] = splitTag(token, tk.line());
      if (cat !== itemCategory) flushItems();
      itemCategory = cat;
      const value = tk.next();
      if (value === undefined || isKeyword(value)) throw new CifSyntaxError(`line ${tk.line()}: ${token} has no value`);
      itemFields.push(name);
      itemValues.push(cifValue(value));
      token = tk.next();
      continue;
    }
    // save frames, global_ and stray values carry nothing a structure needs.
    token = tk.next();
  }
  flushItems();
  return { block };
}

function splitTag(tag: string, line: number): [string, string] {
  const dot = tag.indexOf('.');
  if (dot === -1) throw new CifSyntaxError(`line ${line}: ${tag} is not an mmCIF category.field name`);
  return [tag.slice(1, dot).toLowerCase(), tag.slice(dot + 1).toLowerCase()];
}

// Tokens of the openCypher grammar: identifiers (plain or `quoted`), numbers, strings, parameters and symbols.
// Keywords are identifiers; the parser matches them without regard to case, as the grammar does.
import { CypherSyntaxError, type Position } from './errors.js';

export type TokenType = 'ident' | 'quoted' | 'int' | 'float' | 'string' | 'param' | 'sym' | 'eof';

export interface Token {
  type: TokenType;
  text: string;
  /** int: the bigint magnitude; float: the number; string: the decoded text; param: the name. */
  value: bigint | number | string | null;
  pos: number;
}

const SYMBOLS = ['..', '<>', '<=', '>=', '=~', '+=', '!=', ...'()[]{},.:|;+-*/%^=<>$'];

export function positionAt(text: string, offset: number): Position {
  let line = 1;
  let col = 1;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      col = 1;
    } else col++;
  }
  return { line, column: col, offset };
}

const identStart = /[\p{L}_]/u;
const identPart = /[\p{L}\p{N}_]/u;

export function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const fail = (detail: string, msg: string, at: number): never => {
    throw new CypherSyntaxError(detail, msg, positionAt(src, at));
  };
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '/') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      if (end < 0) fail('UnexpectedSyntax', 'unterminated comment', i);
      i = end + 2;
      continue;
    }
    const start = i;
    const prev = out[out.length - 1];
    // `.5` is a number unless it follows something a property could be read from (`n.5` is no Cypher).
    const afterValue = prev && (prev.type === 'quoted' || [')', ']', '}'].includes(prev.text));
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? '') && !afterValue)) {
      i = lexNumber(src, i, out, fail);
      continue;
    }
    if (c === "'" || c === '"') {
      i = lexString(src, i, out, fail);
      continue;
    }
    if (c === '`') {
      let text = '';
      i++;
      for (;;) {
        if (i >= src.length) fail('UnexpectedSyntax', 'unterminated quoted name', start);
        if (src[i] === '`') {
          if (src[i + 1] === '`') {
            text += '`';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        text += src[i++];
      }
      out.push({ type: 'quoted', text, value: text, pos: start });
      continue;
    }
    if (c === '$') {
      i++;
      let name = '';
      if (src[i] === '`') {
        const end = src.indexOf('`', i + 1);
        if (end < 0) fail('UnexpectedSyntax', 'unterminated parameter name', start);
        name = src.slice(i + 1, end);
        i = end + 1;
      } else {
        while (i < src.length && identPart.test(src[i]!)) name += src[i++];
      }
      if (!name) fail('UnexpectedSyntax', 'a parameter needs a name', start);
      out.push({ type: 'param', text: `$${name}`, value: name, pos: start });
      continue;
    }
    if (identStart.test(c)) {
      while (i < src.length && identPart.test(src[i]!)) i++;
      const text = src.slice(start, i);
      out.push({ type: 'ident', text, value: text, pos: start });
      continue;
    }
    const sym = SYMBOLS.find((s) => src.startsWith(s, i));
    if (sym) {
      out.push({ type: 'sym', text: sym === '!=' ? '<>' : sym, value: null, pos: start });
      i += sym.length;
      continue;
    }
    if (c.charCodeAt(0) > 127) fail('InvalidUnicodeCharacter', `unexpected character '${c}'`, i);
    fail('UnexpectedSyntax', `unexpected character '${c}'`, i);
  }
  out.push({ type: 'eof', text: '', value: null, pos: src.length });
  return out;
}

type Fail = (detail: string, msg: string, at: number) => never;

function lexNumber(src: string, i: number, out: Token[], fail: Fail): number {
  const start = i;
  const tail = (j: number) => {
    if (j < src.length && identPart.test(src[j]!)) fail('InvalidNumberLiteral', 'invalid number literal', start);
  };
  if (src[i] === '0' && (src[i + 1] === 'x' || src[i + 1] === 'X')) {
    let j = i + 2;
    while (j < src.length && /[0-9a-fA-F]/.test(src[j]!)) j++;
    if (j === i + 2) fail('InvalidNumberLiteral', 'invalid hexadecimal literal', start);
    tail(j);
    out.push({ type: 'int', text: src.slice(i, j), value: BigInt(src.slice(i, j)), pos: start });
    return j;
  }
  if (src[i] === '0' && (src[i + 1] === 'o' || src[i + 1] === 'O')) {
    let j = i + 2;
    while (j < src.length && /[0-7]/.test(src[j]!)) j++;
    if (j === i + 2) fail('InvalidNumberLiteral', 'invalid octal literal', start);
    tail(j);
    out.push({ type: 'int', text: src.slice(i, j), value: BigInt(`0o${src.slice(i + 2, j)}`), pos: start });
    return j;
  }
  let j = i;
  while (j < src.length && /[0-9]/.test(src[j]!)) j++;
  let isFloat = false;
  if (src[j] === '.' && /[0-9]/.test(src[j + 1] ?? '')) {
    isFloat = true;
    j++;
    while (j < src.length && /[0-9]/.test(src[j]!)) j++;
  }
  if (
    (src[j] === 'e' || src[j] === 'E') &&
    /[0-9]/.test(src[j + 1] === '-' || src[j + 1] === '+' ? (src[j + 2] ?? '') : (src[j + 1] ?? ''))
  ) {
    isFloat = true;
    j += src[j + 1] === '-' || src[j + 1] === '+' ? 2 : 1;
    while (j < src.length && /[0-9]/.test(src[j]!)) j++;
  }
  tail(j);
  const text = src.slice(i, j);
  if (isFloat) {
    const v = Number(text);
    if (!Number.isFinite(v)) fail('FloatingPointOverflow', `${text} does not fit a 64-bit float`, start);
    out.push({ type: 'float', text, value: v, pos: start });
  } else {
    out.push({ type: 'int', text, value: BigInt(text), pos: start });
  }
  return j;
}

function lexString(src: string, i: number, out: Token[], fail: Fail): number {
  const quote = src[i]!;
  const start = i;
  let s = '';
  i++;
  for (;;) {
    if (i >= src.length) fail('UnexpectedSyntax', 'unterminated string', start);
    const c = src[i]!;
    if (c === quote) {
      i++;
      break;
    }
    if (c === '\\') {
      const e = src[i + 1];
      const simple: Record<string, string> = {
        '\\': '\\',
        "'": "'",
        '"': '"',
        b: '\b',
        f: '\f',
        n: '\n',
        r: '\r',
        t: '\t',
      };
      if (e !== undefined && e in simple) {
        s += simple[e];
        i += 2;
        continue;
      }
      if (e === 'u' || e === 'U') {
        const len = e === 'u' ? 4 : 8;
        const hex = src.slice(i + 2, i + 2 + len);
        if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) fail('InvalidUnicodeLiteral', 'invalid unicode escape', i);
        s += String.fromCodePoint(Number.parseInt(hex, 16));
        i += 2 + len;
        continue;
      }
      s += c;
      i++;
      continue;
    }
    s += c;
    i++;
  }
  out.push({ type: 'string', text: src.slice(start, i), value: s, pos: start });
  return i;
}

// The TCK's value format (TCK-README "Format of the expected results"): expected cells are parsed into a
// neutral tree, actual values are converted into the same tree, and the two are compared. Nodes compare by
// labels (as a set) and properties, relationships by type and properties, paths element by element.
import { DurationValue, GraphNode, GraphRelationship, PathValue, TemporalValue, type Value } from '../src/index.js';

export type TckValue =
  | { t: 'null' }
  | { t: 'bool'; v: boolean }
  | { t: 'int'; v: bigint }
  | { t: 'float'; v: number }
  | { t: 'string'; v: string }
  | { t: 'list'; items: TckValue[] }
  | { t: 'map'; entries: Map<string, TckValue> }
  | { t: 'node'; labels: string[]; props: Map<string, TckValue> }
  | { t: 'rel'; type: string; props: Map<string, TckValue> }
  | { t: 'path'; nodes: TckValue[]; rels: { rel: TckValue; forward: boolean }[] };

export function parseTckValue(text: string): TckValue {
  const p = new ValueParser(text.trim());
  const v = p.value();
  p.ws();
  if (p.i !== p.s.length) throw new Error(`cannot read TCK value '${text}' at ${p.i}`);
  return v;
}

class ValueParser {
  i = 0;
  constructor(readonly s: string) {}
  ws() {
    while (this.i < this.s.length && /\s/.test(this.s[this.i]!)) this.i++;
  }
  eat(x: string): boolean {
    this.ws();
    if (this.s.startsWith(x, this.i)) {
      this.i += x.length;
      return true;
    }
    return false;
  }
  expect(x: string) {
    if (!this.eat(x)) throw new Error(`expected '${x}' at ${this.i} in '${this.s}'`);
  }
  name(): string {
    this.ws();
    if (this.s[this.i] === '`') {
      const end = this.s.indexOf('`', this.i + 1);
      const n = this.s.slice(this.i + 1, end);
      this.i = end + 1;
      return n;
    }
    const m = /^[\p{L}_][\p{L}\p{N}_]*/u.exec(this.s.slice(this.i));
    if (!m) throw new Error(`expected a name at ${this.i} in '${this.s}'`);
    this.i += m[0].length;
    return m[0];
  }
  props(): Map<string, TckValue> {
    const m = new Map<string, TckValue>();
    if (!this.eat('{')) return m;
    if (this.eat('}')) return m;
    do {
      const k = this.name();
      this.expect(':');
      m.set(k, this.value());
    } while (this.eat(','));
    this.expect('}');
    return m;
  }
  node(): TckValue {
    this.expect('(');
    const labels: string[] = [];
    while (this.eat(':')) labels.push(this.name());
    const props = this.props();
    this.expect(')');
    return { t: 'node', labels, props };
  }
  rel(): TckValue {
    this.expect('[');
    this.expect(':');
    const type = this.name();
    const props = this.props();
    this.expect(']');
    return { t: 'rel', type, props };
  }
  value(): TckValue {
    this.ws();
    const rest = this.s.slice(this.i);
    if (rest.startsWith('(')) return this.node();
    if (rest.startsWith('[:')) return this.rel();
    if (rest.startsWith('<')) {
      this.i++;
      const nodes = [this.node()];
      const rels: { rel: TckValue; forward: boolean }[] = [];
      for (;;) {
        if (this.eat('<-')) {
          const rel = this.rel();
          this.expect('-');
          rels.push({ rel, forward: false });
        } else if (this.eat('-')) {
          const rel = this.rel();
          this.expect('->');
          rels.push({ rel, forward: true });
        } else break;
        nodes.push(this.node());
      }
      this.expect('>');
      return { t: 'path', nodes, rels };
    }
    if (rest.startsWith('[')) {
      this.i++;
      const items: TckValue[] = [];
      if (!this.eat(']')) {
        do items.push(this.value());
        while (this.eat(','));
        this.expect(']');
      }
      return { t: 'list', items };
    }
    if (rest.startsWith('{')) return { t: 'map', entries: this.props() };
    if (rest.startsWith("'")) {
      let j = this.i + 1;
      let out = '';
      while (j < this.s.length && this.s[j] !== "'") {
        if (this.s[j] === '\\' && j + 1 < this.s.length) {
          out += this.s[j + 1];
          j += 2;
        } else out += this.s[j++];
      }
      this.i = j + 1;
      return { t: 'string', v: out };
    }
    for (const [word, v] of [
      ['null', { t: 'null' }],
      ['true', { t: 'bool', v: true }],
      ['false', { t: 'bool', v: false }],
      ['NaN', { t: 'float', v: Number.NaN }],
      ['-Infinity', { t: 'float', v: Number.NEGATIVE_INFINITY }],
      ['Infinity', { t: 'float', v: Number.POSITIVE_INFINITY }],
      ['-Inf', { t: 'float', v: Number.NEGATIVE_INFINITY }],
      ['Inf', { t: 'float', v: Number.POSITIVE_INFINITY }],
    ] as [string, TckValue][]) {
      if (rest.startsWith(word)) {
        this.i += word.length;
        return v;
      }
    }
    const m = /^-?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?)/.exec(rest);
    if (!m) throw new Error(`cannot read a value at ${this.i} in '${this.s}'`);
    this.i += m[0].length;
    return /[.eE]/.test(m[0]) ? { t: 'float', v: Number(m[0]) } : { t: 'int', v: BigInt(m[0]) };
  }
}

const propsOf = (p: Record<string, Value>) => new Map(Object.entries(p).map(([k, v]) => [k, fromValue(v)]));

export function fromValue(v: Value): TckValue {
  if (v === null) return { t: 'null' };
  if (typeof v === 'boolean') return { t: 'bool', v };
  if (typeof v === 'bigint') return { t: 'int', v };
  if (typeof v === 'number') return { t: 'float', v };
  if (typeof v === 'string') return { t: 'string', v };
  // The TCK writes temporal values in their string form.
  if (v instanceof TemporalValue || v instanceof DurationValue) return { t: 'string', v: v.toString() };
  if (Array.isArray(v)) return { t: 'list', items: v.map(fromValue) };
  if (v instanceof GraphNode) return { t: 'node', labels: [...v.labels], props: propsOf(v.properties) };
  if (v instanceof GraphRelationship) return { t: 'rel', type: v.type, props: propsOf(v.properties) };
  if (v instanceof PathValue) {
    return {
      t: 'path',
      nodes: v.nodes.map(fromValue),
      rels: v.rels.map((r, i) => ({ rel: fromValue(r), forward: r.start === v.nodes[i] })),
    };
  }
  return { t: 'map', entries: propsOf(v) };
}

/** Structural equality; with `unorderedLists`, lists compare as multisets. */
export function sameValue(a: TckValue, b: TckValue, unorderedLists = false): boolean {
  if (a.t !== b.t) return false;
  switch (a.t) {
    case 'null':
      return true;
    case 'float': {
      const y = (b as { v: number }).v;
      return (Number.isNaN(a.v) && Number.isNaN(y)) || a.v === y;
    }
    case 'bool':
    case 'int':
    case 'string':
      return a.v === (b as { v: unknown }).v;
    case 'list': {
      const y = (b as typeof a).items;
      if (a.items.length !== y.length) return false;
      if (!unorderedLists) return a.items.every((x, i) => sameValue(x, y[i]!, unorderedLists));
      return sameBag(a.items, y, unorderedLists);
    }
    case 'map':
      return sameProps(a.entries, (b as typeof a).entries, unorderedLists);
    case 'node': {
      const y = b as typeof a;
      return (
        a.labels.length === y.labels.length &&
        a.labels.every((l) => y.labels.includes(l)) &&
        sameProps(a.props, y.props, unorderedLists)
      );
    }
    case 'rel': {
      const y = b as typeof a;
      return a.type === y.type && sameProps(a.props, y.props, unorderedLists);
    }
    case 'path': {
      const y = b as typeof a;
      return (
        a.nodes.length === y.nodes.length &&
        a.nodes.every((n, i) => sameValue(n, y.nodes[i]!)) &&
        a.rels.every((r, i) => r.forward === y.rels[i]!.forward && sameValue(r.rel, y.rels[i]!.rel))
      );
    }
  }
}

function sameProps(a: Map<string, TckValue>, b: Map<string, TckValue>, u: boolean): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) {
    const w = b.get(k);
    if (!w || !sameValue(v, w, u)) return false;
  }
  return true;
}

export function sameBag<T>(
  a: T[],
  b: T[],
  u: boolean,
  eq: (x: T, y: T, u: boolean) => boolean = sameValue as never,
): boolean {
  if (a.length !== b.length) return false;
  const left = [...b];
  for (const x of a) {
    const i = left.findIndex((y) => eq(x, y, u));
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return true;
}

export function showValue(v: TckValue): string {
  const props = (m: Map<string, TckValue>) =>
    m.size === 0 ? '' : ` {${[...m].map(([k, x]) => `${k}: ${showValue(x)}`).join(', ')}}`;
  switch (v.t) {
    case 'null':
      return 'null';
    case 'string':
      return `'${v.v}'`;
    case 'float':
      return Number.isInteger(v.v) ? `${v.v}.0` : String(v.v);
    case 'bool':
    case 'int':
      return String(v.v);
    case 'list':
      return `[${v.items.map(showValue).join(', ')}]`;
    case 'map':
      return `{${[...v.entries].map(([k, x]) => `${k}: ${showValue(x)}`).join(', ')}}`;
    case 'node':
      return `(${v.labels.map((l) => `:${l}`).join('')}${props(v.props)})`;
    case 'rel':
      return `[:${v.type}${props(v.props)}]`;
    case 'path':
      return `<${showValue(v.nodes[0]!)}${v.rels
        .map(
          (r, i) =>
            `${r.forward ? '-' : '<-'}${showValue(r.rel)}${r.forward ? '->' : '-'}${showValue(v.nodes[i + 1]!)}`,
        )
        .join('')}>`;
  }
}

// A recursive-descent parser that follows the openCypher grammar (grammar/openCypher.bnf of the TCK): one
// function per production. Hand-written rather than generated because it reports the exact line and column of
// the first unexpected token, keeps the TCK's error details (IntegerOverflow, InvalidNumberLiteral, …) apart,
// and needs no generated code or runtime dependency.
import type {
  Clause,
  CompareOp,
  Expr,
  MapProjectionItem,
  NodePattern,
  PatternPart,
  Projection,
  ProjectionItem,
  Query,
  RelPattern,
  RemoveItem,
  SetItem,
  SingleQuery,
  SortItem,
} from './ast.js';
import { CypherSyntaxError } from './errors.js';
import { positionAt, type Token, tokenize } from './lexer.js';
import { INT64_MAX } from './values.js';

/**
 * Parentheses, lists, maps, NOT and signs nested deeper than this, or a syntax tree deeper than this (a chain
 * of `+` or of `[0]` is as deep as it is long), are refused with a syntax error at the place: the parser, the
 * checks and the evaluator recurse once per level, and a stack overflow must not be how a query ends. Chains
 * of OR, XOR and AND are kept shallow (balanced), so a long disjunction is fine.
 */
export const MAX_NESTING = 200;

const NESTING = 'NestingTooDeep';

export function parse(src: string): Query {
  const q = new Parser(src).query();
  checkTreeDepth(q, src);
  return q;
}

const nestingError = (src: string, pos: number) =>
  new CypherSyntaxError(NESTING, `the query nests deeper than ${MAX_NESTING} levels`, positionAt(src, pos));

/** The syntax tree's depth (nodes with a `kind`), walked without recursion so any depth is measured safely. */
function checkTreeDepth(q: Query, src: string): void {
  const stack: [unknown, number][] = [[q, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    let depth = d;
    if (!Array.isArray(v) && typeof (v as { kind?: unknown }).kind === 'string') {
      depth++;
      if (depth > MAX_NESTING) throw nestingError(src, (v as { pos?: number }).pos ?? 0);
    }
    for (const x of Array.isArray(v) ? v : Object.values(v))
      if (x !== null && typeof x === 'object') stack.push([x, depth]);
  }
}

class Parser {
  private readonly t: Token[];
  private i = 0;
  /** How deep the parse is nested (parentheses, brackets, braces, NOT, signs). */
  private depth = 0;
  /** parenAtom and bracketAtom by token index: each tries a pattern first, and without this a nest of
   *  `({a: ({a: …})})` would be parsed twice per level, 2^n times in all. */
  private readonly memo = new Map<string, { e: Expr; next: number } | { err: unknown }>();

  constructor(private readonly src: string) {
    this.t = tokenize(src);
  }

  // ---- token helpers ----
  private get peek(): Token {
    return this.t[this.i]!;
  }
  private at(k: number): Token {
    return this.t[Math.min(this.i + k, this.t.length - 1)]!;
  }
  private isKw(word: string, k = 0): boolean {
    const tok = this.at(k);
    return tok.type === 'ident' && tok.text.toUpperCase() === word;
  }
  private isSym(s: string, k = 0): boolean {
    const tok = this.at(k);
    return tok.type === 'sym' && tok.text === s;
  }
  private acceptKw(word: string): boolean {
    if (this.isKw(word)) {
      this.i++;
      return true;
    }
    return false;
  }
  private acceptSym(s: string): boolean {
    if (this.isSym(s)) {
      this.i++;
      return true;
    }
    return false;
  }
  private fail(message: string, tok: Token = this.peek, detail = 'UnexpectedSyntax'): never {
    throw new CypherSyntaxError(detail, message, positionAt(this.src, tok.pos));
  }
  private unexpected(expected: string): never {
    const tok = this.peek;
    const found = tok.type === 'eof' ? 'the end of the query' : `'${tok.text}'`;
    this.fail(`expected ${expected}, found ${found}`);
  }
  private expectKw(word: string): void {
    if (!this.acceptKw(word)) this.unexpected(word);
  }
  private expectSym(s: string): void {
    if (!this.acceptSym(s)) this.unexpected(`'${s}'`);
  }
  private name(): string {
    const tok = this.peek;
    if (tok.type === 'ident' || tok.type === 'quoted') {
      this.i++;
      return tok.value as string;
    }
    return this.unexpected('a name');
  }
  private isName(k = 0): boolean {
    const tp = this.at(k).type;
    return tp === 'ident' || tp === 'quoted';
  }
  /** A variable name: an identifier that is not a reserved clause word. */
  private variable(): string {
    return this.name();
  }

  // ---- queries and clauses ----
  query(): Query {
    const parts: SingleQuery[] = [this.singleQuery()];
    const unionAll: boolean[] = [];
    while (this.acceptKw('UNION')) {
      unionAll.push(this.acceptKw('ALL'));
      parts.push(this.singleQuery());
    }
    this.acceptSym(';');
    if (this.peek.type !== 'eof') this.unexpected('a clause');
    return { parts, unionAll };
  }

  private singleQuery(): SingleQuery {
    const clauses: Clause[] = [];
    while (this.peek.type !== 'eof' && !this.isKw('UNION') && !this.isSym(';')) clauses.push(this.clause());
    if (clauses.length === 0) this.unexpected('a clause');
    return { clauses };
  }

  private clause(): Clause {
    const pos = this.peek.pos;
    if (this.isKw('OPTIONAL')) {
      this.i++;
      this.expectKw('MATCH');
      return this.matchRest(true, pos);
    }
    if (this.acceptKw('MATCH')) return this.matchRest(false, pos);
    if (this.acceptKw('UNWIND')) {
      const expr = this.expr();
      this.expectKw('AS');
      return { kind: 'unwind', expr, alias: this.variable(), pos };
    }
    if (this.acceptKw('WITH')) {
      const p = this.projection();
      const where = this.acceptKw('WHERE') ? this.expr() : null;
      return { kind: 'with', ...p, where, pos };
    }
    if (this.acceptKw('RETURN')) return { kind: 'return', ...this.projection(), pos };
    if (this.acceptKw('CREATE')) return { kind: 'create', pattern: this.pattern(false), pos };
    if (this.acceptKw('MERGE')) {
      const pattern = this.patternPart();
      const onCreate: SetItem[] = [];
      const onMatch: SetItem[] = [];
      while (this.isKw('ON')) {
        this.i++;
        if (this.acceptKw('CREATE')) {
          this.expectKw('SET');
          onCreate.push(...this.setItems());
        } else if (this.acceptKw('MATCH')) {
          this.expectKw('SET');
          onMatch.push(...this.setItems());
        } else this.unexpected('CREATE or MATCH');
      }
      return { kind: 'merge', pattern, onCreate, onMatch, pos };
    }
    if (this.acceptKw('SET')) return { kind: 'set', items: this.setItems(), pos };
    if (this.acceptKw('REMOVE')) {
      const items: RemoveItem[] = [];
      do items.push(this.removeItem());
      while (this.acceptSym(','));
      return { kind: 'remove', items, pos };
    }
    if (this.isKw('DETACH') || this.isKw('DELETE')) {
      const detach = this.acceptKw('DETACH');
      this.expectKw('DELETE');
      const exprs = [this.expr()];
      while (this.acceptSym(',')) exprs.push(this.expr());
      return { kind: 'delete', detach, exprs, pos };
    }
    if (this.acceptKw('CALL')) {
      const parts = [this.name()];
      while (this.acceptSym('.')) parts.push(this.name());
      let args: Expr[] | null = null;
      if (this.acceptSym('(')) {
        args = [];
        if (!this.isSym(')')) {
          do args.push(this.expr());
          while (this.acceptSym(','));
        }
        this.expectSym(')');
      }
      let yields: { name: string; alias: string }[] | null = null;
      let where: Expr | null = null;
      if (this.acceptKw('YIELD')) {
        yields = [];
        // YIELD * is kept as the item '*'; the checks expand it to every output.
        if (this.acceptSym('*')) yields.push({ name: '*', alias: '*' });
        else
          do {
            const name = this.name();
            yields.push({ name, alias: this.acceptKw('AS') ? this.variable() : name });
          } while (this.acceptSym(','));
        if (this.acceptKw('WHERE')) where = this.expr();
      }
      return { kind: 'call', name: parts.join('.'), args, yields, where, pos };
    }
    return this.unexpected('a clause (MATCH, RETURN, WITH, …)');
  }

  private matchRest(optional: boolean, pos: number): Clause {
    const pattern = this.pattern();
    const where = this.acceptKw('WHERE') ? this.expr() : null;
    return { kind: 'match', optional, pattern, where, pos };
  }

  private projection(): Projection {
    const distinct = this.acceptKw('DISTINCT');
    let star = false;
    const items: ProjectionItem[] = [];
    if (this.acceptSym('*')) {
      star = true;
      if (this.acceptSym(',')) items.push(...this.projectionItems());
    } else items.push(...this.projectionItems());
    const order: SortItem[] = [];
    if (this.isKw('ORDER')) {
      this.i++;
      this.expectKw('BY');
      do {
        const expr = this.expr();
        let descending = false;
        if (this.acceptKw('DESC') || this.acceptKw('DESCENDING')) descending = true;
        else if (!this.acceptKw('ASC')) this.acceptKw('ASCENDING');
        order.push({ expr, descending });
      } while (this.acceptSym(','));
    }
    const skip = this.acceptKw('SKIP') ? this.expr() : null;
    const limit = this.acceptKw('LIMIT') ? this.expr() : null;
    return { distinct, star, items, order, skip, limit };
  }

  private projectionItems(): ProjectionItem[] {
    const items: ProjectionItem[] = [];
    do {
      const startTok = this.peek;
      const expr = this.expr();
      const text = this.src.slice(startTok.pos, this.peek.pos).trim();
      const alias = this.acceptKw('AS') ? this.variable() : null;
      items.push({ expr, alias, text });
    } while (this.acceptSym(','));
    return items;
  }

  private setItems(): SetItem[] {
    const items: SetItem[] = [];
    do items.push(this.setItem());
    while (this.acceptSym(','));
    return items;
  }

  private setItem(): SetItem {
    if (this.isName() && this.isSym(':', 1)) {
      const variable = this.variable();
      return { kind: 'labels', variable, labels: this.labels() };
    }
    if (this.isName() && (this.isSym('=', 1) || this.isSym('+=', 1))) {
      const variable = this.variable();
      const merge = this.peek.text === '+=';
      this.i++;
      const value = this.expr();
      return merge ? { kind: 'merge', variable, value } : { kind: 'replace', variable, value };
    }
    const target = this.postfix(this.atom(), false);
    if (target.kind !== 'prop') this.unexpected('a property (n.key = …)');
    this.expectSym('=');
    return { kind: 'property', target: target.target, key: target.key, value: this.expr() };
  }

  private removeItem(): RemoveItem {
    if (this.isName() && this.isSym(':', 1)) {
      const variable = this.variable();
      return { kind: 'labels', variable, labels: this.labels() };
    }
    const target = this.postfix(this.atom(), false);
    if (target.kind !== 'prop') this.unexpected('a property or a label');
    return { kind: 'property', target: target.target, key: target.key };
  }

  private labels(): string[] {
    const labels: string[] = [];
    while (this.acceptSym(':')) labels.push(this.name());
    return labels;
  }

  // ---- patterns ----
  /**
   * `matched`: the pattern will be matched against the graph, part after part and hop after hop (one level
   * of the matcher each), so it may have at most MAX_NESTING parts and relationships per part. A CREATE
   * pattern is only walked in a loop.
   */
  private pattern(matched = true): PatternPart[] {
    const parts = [this.patternPart(matched)];
    while (this.acceptSym(',')) {
      if (matched && parts.length >= MAX_NESTING) {
        throw new CypherSyntaxError(
          NESTING,
          `a pattern of more than ${MAX_NESTING} parts`,
          positionAt(this.src, this.peek.pos),
        );
      }
      parts.push(this.patternPart(matched));
    }
    return parts;
  }

  private patternPart(matched = true): PatternPart {
    const pos = this.peek.pos;
    let variable: string | null = null;
    if (this.isName() && this.isSym('=', 1)) {
      variable = this.variable();
      this.i++;
    }
    const el = this.patternElement(matched);
    return { variable, ...el, pos };
  }

  private patternElement(matched = true): { nodes: NodePattern[]; rels: RelPattern[] } {
    // A parenthesized element: ((a)-->(b)).
    if (this.isSym('(') && this.isSym('(', 1)) {
      this.i++;
      const el = this.nest(() => this.patternElement(matched));
      this.expectSym(')');
      return el;
    }
    const nodes = [this.nodePattern()];
    const rels: RelPattern[] = [];
    while (this.isSym('-') || (this.isSym('<') && this.isSym('-', 1))) {
      if (matched && rels.length >= MAX_NESTING) {
        const at = positionAt(this.src, this.peek.pos);
        throw new CypherSyntaxError(NESTING, `a pattern of more than ${MAX_NESTING} relationships`, at);
      }
      rels.push(this.relPattern());
      nodes.push(this.nodePattern());
    }
    return { nodes, rels };
  }

  private nodePattern(): NodePattern {
    const pos = this.peek.pos;
    this.expectSym('(');
    const variable = this.isName() ? this.variable() : null;
    const labels = this.labels();
    const properties = this.isSym('{') || this.peek.type === 'param' ? this.atom() : null;
    this.expectSym(')');
    return { variable, labels, properties, pos };
  }

  private relPattern(): RelPattern {
    const pos = this.peek.pos;
    const left = this.acceptSym('<');
    this.expectSym('-');
    let variable: string | null = null;
    const types: string[] = [];
    let range: RelPattern['range'] = null;
    let properties: Expr | null = null;
    if (this.acceptSym('[')) {
      if (this.isName()) variable = this.variable();
      if (this.acceptSym(':')) {
        types.push(this.name());
        while (this.acceptSym('|')) {
          this.acceptSym(':');
          types.push(this.name());
        }
      }
      if (this.acceptSym('*')) range = this.range();
      if (this.isSym('{') || this.peek.type === 'param') properties = this.atom();
      this.expectSym(']');
    }
    this.expectSym('-');
    const right = this.acceptSym('>');
    // <-[]-> is written for "either way", like -[]-.
    const direction = left && !right ? 'in' : right && !left ? 'out' : 'both';
    return { variable, types, direction, range, properties, pos };
  }

  private range(): { min: number | null; max: number | null } {
    const intTok = (): number | null => {
      if (this.peek.type !== 'int') return null;
      return Number(this.t[this.i++]!.value as bigint);
    };
    const min = intTok();
    if (this.acceptSym('..')) return { min, max: intTok() };
    return { min, max: min };
  }

  /** One level deeper: refused past MAX_NESTING, at the token where it happens. */
  private nest<T>(rule: () => T): T {
    if (this.depth >= MAX_NESTING) throw nestingError(this.src, this.peek.pos);
    this.depth++;
    try {
      return rule();
    } finally {
      this.depth--;
    }
  }

  /** A rule whose result at a token index is kept: the same text parses the same way. */
  private memoized(name: string, rule: () => Expr): Expr {
    const key = `${name}${this.i}`;
    const hit = this.memo.get(key);
    if (hit) {
      if ('err' in hit) throw hit.err;
      this.i = hit.next;
      return hit.e;
    }
    try {
      const e = rule();
      this.memo.set(key, { e, next: this.i });
      return e;
    } catch (err) {
      this.memo.set(key, { err });
      throw err;
    }
  }

  // ---- expressions ----
  expr(): Expr {
    return this.nest(() => this.or());
  }

  private or(): Expr {
    return this.chain('OR', 'or', () => this.xor());
  }

  private xor(): Expr {
    return this.chain('XOR', 'xor', () => this.and());
  }

  private and(): Expr {
    return this.chain('AND', 'and', () => this.not());
  }

  /**
   * `a OP b OP c …` as a balanced tree. OR, XOR and AND are associative in Cypher's ternary logic, and a
   * balanced tree evaluates its operands left to right and stops at the same one as a left-deep chain
   * (the first false for AND, the first true for OR), so only the depth changes: log n instead of n.
   */
  private chain(word: string, op: 'or' | 'xor' | 'and', operand: () => Expr): Expr {
    const operands = [operand()];
    const positions: number[] = [];
    while (this.isKw(word)) {
      positions.push(this.peek.pos);
      this.i++;
      operands.push(operand());
    }
    const build = (lo: number, hi: number): Expr => {
      if (lo === hi) return operands[lo]!;
      const mid = (lo + hi) >> 1;
      return { kind: 'binary', op, left: build(lo, mid), right: build(mid + 1, hi), pos: positions[mid]! };
    };
    return build(0, operands.length - 1);
  }

  private not(): Expr {
    if (this.isKw('NOT')) {
      const pos = this.peek.pos;
      this.i++;
      return { kind: 'unary', op: 'not', arg: this.nest(() => this.not()), pos };
    }
    return this.comparison();
  }

  private comparison(): Expr {
    const first = this.predicates();
    const ops: CompareOp[] = [];
    const args: Expr[] = [first];
    for (;;) {
      const tok = this.peek;
      if (tok.type === 'sym' && ['=', '<>', '<', '>', '<=', '>='].includes(tok.text)) {
        this.i++;
        ops.push(tok.text as CompareOp);
        args.push(this.predicates());
      } else break;
    }
    return ops.length === 0 ? first : { kind: 'compare', ops, args, pos: first.pos };
  }

  private predicates(): Expr {
    let left = this.addSub();
    for (;;) {
      const pos = this.peek.pos;
      if (this.isKw('STARTS') && this.isKw('WITH', 1)) {
        this.i += 2;
        left = { kind: 'binary', op: 'startsWith', left, right: this.addSub(), pos };
      } else if (this.isKw('ENDS') && this.isKw('WITH', 1)) {
        this.i += 2;
        left = { kind: 'binary', op: 'endsWith', left, right: this.addSub(), pos };
      } else if (this.acceptKw('CONTAINS')) {
        left = { kind: 'binary', op: 'contains', left, right: this.addSub(), pos };
      } else if (this.acceptKw('IN')) {
        left = { kind: 'binary', op: 'in', left, right: this.addSub(), pos };
      } else if (this.acceptSym('=~')) {
        left = { kind: 'binary', op: '=~', left, right: this.addSub(), pos };
      } else if (this.isKw('IS') && this.isKw('NULL', 1)) {
        this.i += 2;
        left = { kind: 'isNull', arg: left, negated: false, pos };
      } else if (this.isKw('IS') && this.isKw('NOT', 1) && this.isKw('NULL', 2)) {
        this.i += 3;
        left = { kind: 'isNull', arg: left, negated: true, pos };
      } else return left;
    }
  }

  private addSub(): Expr {
    let left = this.mulDiv();
    while (this.isSym('+') || this.isSym('-')) {
      const tok = this.t[this.i++]!;
      left = { kind: 'binary', op: tok.text as '+' | '-', left, right: this.mulDiv(), pos: tok.pos };
    }
    return left;
  }

  private mulDiv(): Expr {
    let left = this.power();
    while (this.isSym('*') || this.isSym('/') || this.isSym('%')) {
      const tok = this.t[this.i++]!;
      left = { kind: 'binary', op: tok.text as '*' | '/' | '%', left, right: this.power(), pos: tok.pos };
    }
    return left;
  }

  private power(): Expr {
    let left = this.unary();
    while (this.isSym('^')) {
      const tok = this.t[this.i++]!;
      left = { kind: 'binary', op: '^', left, right: this.unary(), pos: tok.pos };
    }
    return left;
  }

  private unary(): Expr {
    const tok = this.peek;
    if (this.isSym('-') || this.isSym('+')) {
      this.i++;
      const next = this.peek;
      if (tok.text === '-' && (next.type === 'int' || next.type === 'float')) {
        this.i++;
        const lit: Expr =
          next.type === 'int'
            ? { kind: 'literal', value: this.checkInt(-(next.value as bigint), next), pos: tok.pos }
            : { kind: 'literal', value: -(next.value as number), pos: tok.pos };
        return this.postfix(lit, true);
      }
      return { kind: 'unary', op: tok.text as '-' | '+', arg: this.nest(() => this.unary()), pos: tok.pos };
    }
    return this.postfix(this.atom(), true);
  }

  private checkInt(v: bigint, tok: Token): bigint {
    if (v > INT64_MAX || v < -INT64_MAX - 1n)
      this.fail(`${tok.text} does not fit a 64-bit integer`, tok, 'IntegerOverflow');
    return v;
  }

  private postfix(base: Expr, labelsAllowed: boolean): Expr {
    let e = base;
    for (;;) {
      const pos = this.peek.pos;
      if (this.isSym('.') && this.isName(1)) {
        this.i++;
        e = { kind: 'prop', target: e, key: this.name(), pos };
      } else if (this.isSym('[')) {
        this.i++;
        if (this.acceptSym('..')) {
          const to = this.isSym(']') ? null : this.expr();
          this.expectSym(']');
          e = { kind: 'slice', target: e, from: null, to, pos };
          continue;
        }
        const first = this.expr();
        if (this.acceptSym('..')) {
          const to = this.isSym(']') ? null : this.expr();
          this.expectSym(']');
          e = { kind: 'slice', target: e, from: first, to, pos };
        } else {
          this.expectSym(']');
          e = { kind: 'index', target: e, index: first, pos };
        }
      } else if (labelsAllowed && this.isSym(':') && this.isName(1)) {
        e = { kind: 'hasLabels', target: e, labels: this.labels(), pos };
      } else return e;
    }
  }

  private atom(): Expr {
    const tok = this.peek;
    const pos = tok.pos;
    switch (tok.type) {
      case 'int':
        this.i++;
        return { kind: 'literal', value: this.checkInt(tok.value as bigint, tok), pos };
      case 'float':
        this.i++;
        return { kind: 'literal', value: tok.value as number, pos };
      case 'string':
        this.i++;
        return { kind: 'literal', value: tok.value as string, pos };
      case 'param':
        this.i++;
        return { kind: 'param', name: tok.value as string, pos };
      case 'eof':
        return this.unexpected('an expression');
      case 'sym':
        if (tok.text === '[') return this.bracketAtom();
        if (tok.text === '{') return this.mapLiteral();
        if (tok.text === '(') return this.parenAtom();
        return this.unexpected('an expression');
      case 'quoted':
        this.i++;
        return this.afterName(tok.value as string, pos);
    }
    const word = tok.text.toUpperCase();
    if (word === 'TRUE' || word === 'FALSE' || word === 'NULL') {
      this.i++;
      return { kind: 'literal', value: word === 'NULL' ? null : word === 'TRUE', pos };
    }
    if (word === 'CASE') return this.caseExpr();
    if (word === 'EXISTS' && this.isSym('{', 1)) return this.existsSubquery();
    if (word === 'COUNT' && this.isSym('(', 1) && this.isSym('*', 2) && this.isSym(')', 3)) {
      this.i += 4;
      return { kind: 'call', name: 'count', distinct: false, args: [], star: true, pos };
    }
    if (['ALL', 'ANY', 'NONE', 'SINGLE'].includes(word) && this.isSym('(', 1) && this.isName(2) && this.isKw('IN', 3)) {
      this.i += 2;
      const variable = this.variable();
      this.expectKw('IN');
      const source = this.expr();
      const where = this.acceptKw('WHERE') ? this.expr() : null;
      this.expectSym(')');
      const quantifier = word.toLowerCase() as 'all' | 'any' | 'none' | 'single';
      return { kind: 'quantifier', quantifier, variable, source, where, pos };
    }
    this.i++;
    return this.afterName(tok.text, pos);
  }

  /** After a name: a function call (maybe namespaced), a map projection, or a variable. */
  private afterName(name: string, pos: number): Expr {
    let k = 0;
    while (this.isSym('.', k) && this.isName(k + 1)) k += 2;
    if (this.isSym('(', k)) {
      const parts = [name];
      for (let j = 0; j < k; j += 2) {
        this.i++;
        parts.push(this.name());
      }
      this.i++;
      const distinct = this.acceptKw('DISTINCT');
      const args: Expr[] = [];
      if (!this.isSym(')')) {
        do args.push(this.expr());
        while (this.acceptSym(','));
      }
      this.expectSym(')');
      return { kind: 'call', name: parts.join('.'), distinct, args, star: false, pos };
    }
    if (this.isSym('{')) return this.mapProjection(name, pos);
    return { kind: 'var', name, pos };
  }

  private mapProjection(target: string, pos: number): Expr {
    this.expectSym('{');
    const items: MapProjectionItem[] = [];
    if (!this.isSym('}')) {
      do {
        if (this.acceptSym('.')) {
          if (this.acceptSym('*')) items.push({ kind: 'all' });
          else items.push({ kind: 'property', key: this.name() });
        } else if (this.isName() && this.isSym(':', 1)) {
          const key = this.name();
          this.i++;
          items.push({ kind: 'entry', key, value: this.expr() });
        } else items.push({ kind: 'variable', name: this.variable() });
      } while (this.acceptSym(','));
    }
    this.expectSym('}');
    return { kind: 'mapProjection', target, items, pos };
  }

  private mapLiteral(): Expr {
    const pos = this.peek.pos;
    this.expectSym('{');
    const entries: [string, Expr][] = [];
    if (!this.isSym('}')) {
      do {
        const key = this.name();
        this.expectSym(':');
        entries.push([key, this.expr()]);
      } while (this.acceptSym(','));
    }
    this.expectSym('}');
    return { kind: 'map', entries, pos };
  }

  private existsSubquery(): Expr {
    const pos = this.peek.pos;
    this.i += 2;
    const clauseWords = ['MATCH', 'OPTIONAL', 'WITH', 'UNWIND', 'RETURN', 'CALL'];
    if (clauseWords.some((w) => this.isKw(w))) {
      const clauses: Clause[] = [];
      while (!this.isSym('}')) {
        if (this.peek.type === 'eof') this.unexpected("'}'");
        clauses.push(this.clause());
      }
      this.i++;
      return { kind: 'existsSubquery', pattern: null, where: null, query: { clauses }, pos };
    }
    const pattern = this.pattern();
    const where = this.acceptKw('WHERE') ? this.expr() : null;
    this.expectSym('}');
    return { kind: 'existsSubquery', pattern, where, query: null, pos };
  }

  private caseExpr(): Expr {
    const pos = this.peek.pos;
    this.expectKw('CASE');
    const subject = this.isKw('WHEN') ? null : this.expr();
    const whens: [Expr, Expr][] = [];
    while (this.acceptKw('WHEN')) {
      const w = this.expr();
      this.expectKw('THEN');
      whens.push([w, this.expr()]);
    }
    if (whens.length === 0) this.unexpected('WHEN');
    const otherwise = this.acceptKw('ELSE') ? this.expr() : null;
    this.expectKw('END');
    return { kind: 'case', subject, whens, otherwise, pos };
  }

  /** Tries a rule; on a syntax error, rewinds and returns null. */
  private attempt<T>(rule: () => T): T | null {
    const save = this.i;
    try {
      return rule();
    } catch (e) {
      if (!(e instanceof CypherSyntaxError) || e.detail === NESTING) throw e;
      this.i = save;
      return null;
    }
  }

  private parenAtom(): Expr {
    return this.memoized('(', () => this.parenAtomRule());
  }

  private parenAtomRule(): Expr {
    const pos = this.peek.pos;
    const pat = this.attempt(() => {
      const el = this.patternElement();
      if (el.rels.length === 0) throw new CypherSyntaxError('UnexpectedSyntax', 'not a pattern');
      return el;
    });
    if (pat) return { kind: 'patternExpr', pattern: { variable: null, ...pat, pos }, pos };
    this.expectSym('(');
    const e = this.expr();
    this.expectSym(')');
    return e;
  }

  private bracketAtom(): Expr {
    return this.memoized('[', () => this.bracketAtomRule());
  }

  private bracketAtomRule(): Expr {
    const pos = this.peek.pos;
    // [x IN list WHERE p | e]
    if (this.isName(1) && this.isKw('IN', 2)) {
      this.i++;
      const variable = this.variable();
      this.expectKw('IN');
      const source = this.expr();
      const where = this.acceptKw('WHERE') ? this.expr() : null;
      const map = this.acceptSym('|') ? this.expr() : null;
      this.expectSym(']');
      return { kind: 'listComp', variable, source, where, map, pos };
    }
    // [p = (a)-->(b) WHERE … | e] or [(a)-->(b) | e]
    if ((this.isName(1) && this.isSym('=', 2)) || this.isSym('(', 1)) {
      const comp = this.attempt(() => {
        this.i++;
        const pattern = this.patternPart();
        const where = this.acceptKw('WHERE') ? this.expr() : null;
        this.expectSym('|');
        const map = this.expr();
        this.expectSym(']');
        return { kind: 'patternComp', pattern, where, map, pos } as Expr;
      });
      if (comp) return comp;
    }
    this.expectSym('[');
    const items: Expr[] = [];
    if (!this.isSym(']')) {
      do items.push(this.expr());
      while (this.acceptSym(','));
    }
    this.expectSym(']');
    return { kind: 'list', items, pos };
  }
}

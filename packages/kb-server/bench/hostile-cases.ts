// The KB console's hostile cases: issue #37's reproductions against the console, as an attacker on loopback
// sends them (no token on loopback), and the graph they run on. Sizes are the issue's at scale 1; the bench's
// HOSTILE_SCALE shrinks them for development.
import type { HostileCase, HostileRequest } from '@evident/testkit';

const JSON_HEADERS = { 'content-type': 'application/json' };
const API = '/api/v1';

export const post = (why: string, path: string, body: unknown, over: Partial<HostileRequest> = {}): HostileRequest => ({
  why,
  method: 'POST',
  path: API + path,
  headers: JSON_HEADERS,
  body: typeof body === 'string' ? body : JSON.stringify(body),
  ...over,
});

const query = (why: string, cypher: string, extra: Record<string, unknown> = {}, over: Partial<HostileRequest> = {}) =>
  post(why, '/query', { cypher, ...extra }, over);

/** Nested arrays, `depth` deep: 2 bytes a level. */
const nestedArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
/** Nested objects {"a":{"a":…}}, `depth` deep: 6 bytes a level. */
const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** Claims between genes in groups of 30 (a ring and chords inside, one link to the next group): Leiden's topics. */
export function clusteredClaims(entities: number, prefix = 'HG'): object[] {
  const size = 30;
  const groups = Math.max(1, Math.ceil(entities / size));
  const name = (g: number, i: number) => `${prefix}${g}X${i}`;
  const claims: object[] = [];
  const claim = (a: string, b: string, n: number) => ({
    subject: [a, 'gene'],
    predicate: ['interacts_with', 'molecular'],
    object: [b, 'gene'],
    source_type: 'experiment',
    source_id: `hostile:${n % 997}`,
  });
  for (let g = 0; g < groups; g++) {
    const inGroup = Math.min(size, entities - g * size);
    for (let i = 0; i < inGroup; i++) {
      if (inGroup > 1) claims.push(claim(name(g, i), name(g, (i + 1) % inGroup), claims.length));
      if (i % 2 === 0 && inGroup > 7) claims.push(claim(name(g, i), name(g, (i + 7) % inGroup), claims.length));
    }
    if (g + 1 < groups) claims.push(claim(name(g, 0), name(g + 1, 1), claims.length));
  }
  return claims;
}

export interface ConsoleSizes {
  /** Multiplies every size below (1: the issue's). */
  scale: number;
  /** Entities the graph was given (the topology cases name it). */
  entities: number;
}

export function consoleCases(s: ConsoleSizes): HostileCase[] {
  const n = (x: number) => Math.max(1, Math.round(x * s.scale));
  const one =
    (req: HostileRequest): HostileCase['run'] =>
    async (c) => ({ exchanges: [await c.send(req)] });
  const many =
    (count: number, make: (i: number) => HostileRequest): HostileCase['run'] =>
    async (c) => ({ exchanges: await c.sendAll(Array.from({ length: count }, (_, i) => make(i))) });
  // Nesting is cheap to send and is not shrunk. The largest depth under 1 MiB (the body's framing included).
  const MiB = 1024 * 1024;
  const arraysDepth = Math.floor((MiB - 512) / 2);
  const objectsDepth = Math.floor((MiB - 512) / 6);
  // A query's text is at most 20,000 characters.
  const parens = 9_990;
  // Claims between genes the base does not have yet, so that each is new to the what-if's view.
  const whatIfClaims = clusteredClaims(n(10_000), 'WI').slice(0, n(10_000));
  const mixedText = 'aZ9-_.'.repeat(Math.ceil(n(1_000_000) / 6)).slice(0, n(1_000_000));

  return [
    {
      name: 'UNWIND range(1,1000000000) AS x RETURN count(x), timeout_ms 2000',
      run: one(query('unwind range', `UNWIND range(1,${n(1_000_000_000)}) AS x RETURN count(x)`, { timeout_ms: 2000 })),
    },
    // The issue's text at scale 1 (1e8 as written there), an integer bound when shrunk.
    { name: 'RETURN range(1,1e8)', run: one(query('range', `RETURN range(1,${s.scale === 1 ? '1e8' : n(1e8)})`)) },
    {
      name: 'a list comprehension over 10^8',
      run: one(query('comprehension', `RETURN [x IN range(1,${n(100_000_000)}) | x * 2] AS xs`)),
    },
    {
      name: 'collect of 5·10^7',
      run: one(query('collect', `UNWIND range(1,${n(50_000_000)}) AS x RETURN collect(x) AS xs`)),
    },
    {
      // The issue's exact query: RE2 answers false at once (a 200), a backtracking engine runs for minutes.
      name: "RETURN 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!' =~ '(a+)+$', timeout_ms 2000",
      run: one(
        query(
          'ReDoS',
          "RETURN 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!' =~ '(a+)+$'",
          { timeout_ms: 2000 },
          { mayPass: true },
        ),
      ),
    },
    {
      name: '2,000² product with max_rows 100,000',
      run: one(
        query('product', `UNWIND range(1,${n(2000)}) AS a UNWIND range(1,${n(2000)}) AS b RETURN a, b`, {
          max_rows: Math.max(1, Math.min(100_000, n(2000) ** 2 - 1)),
        }),
      ),
    },
    {
      name: 'deep nesting in a query (parentheses, lists, maps; 20,000 characters)',
      run: async (c) => ({
        exchanges: await c.sendAll([
          query('nested parentheses', `RETURN ${'('.repeat(parens)}1${')'.repeat(parens)} AS x`),
          query('nested lists', `RETURN ${'['.repeat(parens)}1${']'.repeat(parens)} AS x`),
          query('nested maps', `RETURN ${'{a:'.repeat(4_990)}1${'}'.repeat(4_990)} AS x`),
        ]),
      }),
    },
    {
      name: `a default topology compute on ${s.entities.toLocaleString('en')} entities`,
      run: one(post('topology', '/topology/compute', {}, { mayPass: true })),
    },
    {
      name: '8 concurrent default topology computes',
      run: many(8, () => post('topology', '/topology/compute', {}, { mayPass: true })),
    },
    {
      name: 'search k=1000 × 40 concurrent',
      run: many(40, (i) => ({
        why: 'search',
        method: 'GET',
        path: `${API}/search?query=${encodeURIComponent(`HG${i} interacts with gene`)}&k=1000`,
        mayPass: true,
      })),
    },
    {
      name: `6 concurrent what-ifs of ${whatIfClaims.length.toLocaleString('en')} claims`,
      run: many(6, () => post('what-if', '/insights/what-if', { add_claims: whatIfClaims }, { mayPass: true })),
    },
    {
      name: `ingestText of ${mixedText.length.toLocaleString('en')} characters of aZ9-_.`,
      run: one(post('ingestText', '/claims/text', { text: mixedText, source_id: 'hostile:text' }, { mayPass: true })),
    },
    {
      name: 'deeply nested JSON under 1 MiB (a body, a claim payload, query params)',
      run: async (c) => ({
        exchanges: await c.sendAll([
          post('nested body', '/query', nestedArrays(arraysDepth)),
          post(
            'nested payload',
            '/claims',
            '{"subject":["HGNEST","gene"],"predicate":["interacts_with","molecular"],"object":["HGNEST2","gene"],' +
              `"source_type":"experiment","source_id":"hostile:nest","payload":${nestedArrays(arraysDepth - 100)}}`,
          ),
          post(
            'nested params',
            '/query',
            `{"cypher":"RETURN $p AS x","params":{"p":${nestedObjects(objectsDepth - 10)}}}`,
          ),
        ]),
      }),
    },
    {
      // Valid JSON whatever the answer: a 200 (null) or a 400.
      name: 'RETURN $toString AS x',
      run: one(query('prototype parameter', 'RETURN $toString AS x', {}, { mayPass: true })),
    },
    {
      // max_rows covers every entity, so that the rows are all serialised.
      name: 'MATCH (n) RETURN n.constructor',
      run: one(query('prototype property', 'MATCH (n) RETURN n.constructor', { max_rows: 100_000 }, { mayPass: true })),
    },
  ];
}

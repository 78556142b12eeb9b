// The PostgreSQL side of store/shared-vectors.ts: provider vectors in the base, one row per (embedder, text hash),
// `vec` null while a process holds the reservation to compute it. Each statement is atomic on its own:
// concurrent INSERT .. ON CONFLICT DO NOTHING lets exactly one inserter own a new row, and the take-over UPDATE
// re-checks its condition on a row another process just updated (READ COMMITTED), so one process takes it.
import type pg from 'pg';
import type { SharedClaim, SharedVectors } from '../shared-vectors.js';

export const VECTORS = 'evident_kb_vectors';

/** Creates the table when missing (called with the schema lock held: see schema.ts). */
export async function ensureVectorsTable(client: pg.PoolClient): Promise<void> {
  await client.query(
    `CREATE TABLE IF NOT EXISTS ${VECTORS} (embedder text NOT NULL, hash text NOT NULL, vec bytea,
      reserved_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (embedder, hash))`,
  );
}

function toBytes(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

function fromBytes(b: Buffer): Float32Array {
  // Copied: a Buffer's offset into its pool need not be 4-aligned.
  const out = new Float32Array(b.byteLength / 4);
  new Uint8Array(out.buffer).set(b);
  return out;
}

export class PostgresSharedVectors implements SharedVectors {
  constructor(private readonly pool: pg.Pool) {}

  async claim(embedder: string, hashes: readonly string[], leaseMs: number): Promise<SharedClaim> {
    const mine = new Set<string>();
    const list = [...new Set(hashes)];
    const found = await this.find(embedder, list);
    if (list.length === 0) return { found, mine };
    const missing = list.filter((h) => !found.has(h));
    if (missing.length === 0) return { found, mine };
    const fresh = await this.pool.query<{ hash: string }>(
      `INSERT INTO ${VECTORS} (embedder, hash) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING RETURNING hash`,
      [embedder, missing],
    );
    for (const r of fresh.rows) mine.add(r.hash);
    const stale = await this.pool.query<{ hash: string }>(
      `UPDATE ${VECTORS} SET reserved_at = now() WHERE embedder = $1 AND hash = ANY($2::text[]) AND vec IS NULL
        AND reserved_at < now() - $3::float8 * interval '1 millisecond' RETURNING hash`,
      [embedder, missing.filter((h) => !mine.has(h)), leaseMs],
    );
    for (const r of stale.rows) mine.add(r.hash);
    return { found, mine };
  }

  async find(embedder: string, hashes: readonly string[]): Promise<Map<string, Float32Array>> {
    const found = new Map<string, Float32Array>();
    if (hashes.length === 0) return found;
    const got = await this.pool.query<{ hash: string; vec: Buffer }>(
      `SELECT hash, vec FROM ${VECTORS} WHERE embedder = $1 AND hash = ANY($2::text[]) AND vec IS NOT NULL`,
      [embedder, hashes],
    );
    for (const r of got.rows) found.set(r.hash, fromBytes(r.vec));
    return found;
  }

  async put(embedder: string, hashes: readonly string[], vectors: readonly Float32Array[]): Promise<void> {
    if (hashes.length === 0) return;
    // One row per hash (a row may be written once per statement): equal texts have equal vectors.
    const byHash = new Map<string, Float32Array>();
    for (let i = 0; i < hashes.length; i++) byHash.set(hashes[i]!, vectors[i]!);
    await this.pool.query(
      `INSERT INTO ${VECTORS} (embedder, hash, vec) SELECT $1, unnest($2::text[]), unnest($3::bytea[])
        ON CONFLICT (embedder, hash) DO UPDATE SET vec = EXCLUDED.vec WHERE ${VECTORS}.vec IS NULL`,
      [embedder, [...byHash.keys()], [...byHash.values()].map(toBytes)],
    );
  }

  async drop(embedder: string): Promise<void> {
    await this.pool.query(`DELETE FROM ${VECTORS} WHERE embedder = $1`, [embedder]);
  }

  async release(embedder: string, hashes: readonly string[]): Promise<void> {
    if (hashes.length === 0) return;
    await this.pool.query(`DELETE FROM ${VECTORS} WHERE embedder = $1 AND hash = ANY($2::text[]) AND vec IS NULL`, [
      embedder,
      hashes,
    ]);
  }
}

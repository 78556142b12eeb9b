// Probes for the real PostgreSQL and Redis servers that tests talk to.
// Locally a missing server makes the dependent tests skip with a message; under CI=true it is an error,
// because CI must exercise those paths for real.
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const inCI = process.env.CI === 'true' || process.env.CI === '1';

export const postgresAdminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** `skip` is false when the service answered, else the reason to pass to node:test's `skip` option. */
export interface ServiceProbe {
  readonly available: boolean;
  readonly skip: string | false;
  readonly url: string;
}

function verdict(name: string, url: string, error: unknown): ServiceProbe {
  if (!error) return { available: true, skip: false, url };
  const why = error instanceof Error ? error.message : String(error);
  if (inCI) {
    throw new Error(`${name} at ${url} is required when CI=true but did not answer: ${why}`);
  }
  const skip = `${name} not reachable at ${url} (${why}); start it to run these tests`;
  console.error(`# skip: ${skip}`);
  return { available: false, skip, url };
}

let pgProbe: Promise<ServiceProbe> | undefined;
export function probePostgres(): Promise<ServiceProbe> {
  pgProbe ??= (async () => {
    const client = new pg.Client({ connectionString: postgresAdminUrl, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.query('select 1');
      return verdict('PostgreSQL', postgresAdminUrl, undefined);
    } catch (e) {
      return verdict('PostgreSQL', postgresAdminUrl, e);
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return pgProbe;
}

let redisProbe: Promise<ServiceProbe> | undefined;
export function probeRedis(): Promise<ServiceProbe> {
  redisProbe ??= new Promise<ServiceProbe>((resolve) => {
    const u = new URL(redisUrl);
    const sock = net.connect({ host: u.hostname, port: Number(u.port || 6379) });
    const done = (err?: unknown) => {
      sock.destroy();
      resolve(verdict('Redis', redisUrl, err));
    };
    sock.setTimeout(3000, () => done(new Error('timeout')));
    sock.once('error', (e) => done(e));
    sock.once('connect', () => sock.write('PING\r\n'));
    sock.once('data', (d) => done(d.toString().startsWith('+PONG') ? undefined : new Error(d.toString().trim())));
  });
  return redisProbe;
}

export interface TempDatabase {
  /** Connection URL of a freshly created, empty database. */
  readonly url: string;
  drop(): Promise<void>;
}

/** Creates an empty database on the test server so that test files never share state. */
export async function createTempDatabase(prefix = 'evident_test'): Promise<TempDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(postgresAdminUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: postgresAdminUrl });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

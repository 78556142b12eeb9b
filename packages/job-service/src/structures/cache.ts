// Downloaded structures on disk, by source and id: <dir>/<source>/<ID>.<format> (and, for AlphaFold models, a
// small JSON beside the file saying which entry and URL it came from). Names are built from checked ids only
// (ids.ts), so nothing escapes <dir>. Writes go to a temporary file in the same directory and are renamed into
// place: a reader sees a whole file or none, and two jobs fetching the same entry at once both succeed.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export type StructureFormat = 'pdb' | 'cif';
export type CacheSource = 'pdb' | 'alphafold';

const SAFE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export class StructureCache {
  constructor(private readonly dir: string) {}

  private path(source: CacheSource, id: string, ext: string): string {
    // Belt and braces: callers pass checked ids, and the cache refuses anything else all the same.
    if (!SAFE_NAME.test(id)) throw new Error(`structure cache: refused id ${JSON.stringify(id.slice(0, 80))}`);
    return join(this.dir, source, `${id}.${ext}`);
  }

  /** The cached text, or undefined when there is none (an empty file counts as none). */
  async read(source: CacheSource, id: string, format: StructureFormat): Promise<string | undefined> {
    try {
      const text = await readFile(this.path(source, id, format), 'utf8');
      return text.length > 0 ? text : undefined;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
  }

  async readJson<T>(source: CacheSource, id: string): Promise<T | undefined> {
    try {
      return JSON.parse(await readFile(this.path(source, id, 'json'), 'utf8')) as T;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || e instanceof SyntaxError) return undefined;
      throw e;
    }
  }

  async write(source: CacheSource, id: string, ext: StructureFormat | 'json', text: string): Promise<void> {
    const target = this.path(source, id, ext);
    await mkdir(join(this.dir, source), { recursive: true });
    const temp = `${target}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temp, text, { mode: 0o644 });
      await rename(temp, target);
    } catch (e) {
      await rm(temp, { force: true }).catch(() => {});
      throw e;
    }
  }
}

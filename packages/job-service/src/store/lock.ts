// One embedded server per data directory: a second one would requeue the first one's running jobs as
// orphans at its start. A pid file claims the directory; a stale one (its process gone, e.g. kill -9) is taken over.
import { mkdirSync, openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';

export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, 'serve.pid');
  for (let tries = 0; tries < 3; tries++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && alive(pid)) {
        throw new Error(`another evident-jobs server (pid ${pid}) is using ${dataDir}`);
      }
      rmSync(file, { force: true });
    }
  }
  throw new Error(`cannot lock ${dataDir}`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

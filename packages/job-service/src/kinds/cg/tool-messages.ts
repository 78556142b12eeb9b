// What a tool (Open Babel, Vina) says is shown to users, in the results and on the poses page. Its messages name
// the per-run scratch files ("title is /tmp/evident-docking-receptor-x1/receptor.pdb"): a path on the service's
// machine, which means nothing to the reader and tells them about the host. The file's own name stays.
import { tmpdir } from 'node:os';
import { basename } from 'node:path';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The folders a scratch file may sit in: the OS's temporary folder (TMPDIR) and the usual Unix ones. */
const tempRoots = () => [...new Set(['/tmp', '/var/tmp', tmpdir().replace(/[/\\]+$/, '')])].filter((r) => r !== '');

/**
 * The message with every path under a temporary folder replaced by the file's name. A path starts where no
 * path character precedes it (so `/home/u/tmp/x` is left alone) and ends at whitespace, a quote, a bracket, a
 * comma, a colon or a semicolon.
 */
export function withoutTempPaths(message: string): string {
  const roots = tempRoots().map(escapeRegExp).join('|');
  const re = new RegExp(String.raw`(?<![\w.~/\\-])(?:${roots})(?:[/\\][^\s'"\x60()[\]{}<>,:;]+)+`, 'g');
  return message.replace(re, (path) => basename(path.replace(/[/\\]+$/, '')));
}

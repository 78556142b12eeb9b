// How the kernel would start a bin whose first line is `#!/usr/bin/env -S NAME=value ... node --flag ...`: the
// bench spawns node itself (testkit's spawnServerProcess), so it reads that line and applies what it says, to
// measure the console as a user running `kb-console` gets it rather than as `node dist/.../kb-console.js`.
import { readFileSync } from 'node:fs';

export interface ShebangLaunch {
  /** Variables the line sets, but for those this process's environment already sets (env would keep ours). */
  env: Record<string, string>;
  /** Node's own flags, the words after `node`. */
  nodeFlags: string[];
}

export function shebangLaunch(path: string, own: NodeJS.ProcessEnv = process.env): ShebangLaunch {
  const first = readFileSync(path, 'utf8').split('\n', 1)[0] ?? '';
  const prefix = '#!/usr/bin/env -S ';
  const out: ShebangLaunch = { env: {}, nodeFlags: [] };
  if (!first.startsWith(prefix)) return out;
  const words = first.slice(prefix.length).trim().split(/\s+/);
  let i = 0;
  for (; i < words.length; i++) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(words[i]!);
    if (!m) break;
    if (own[m[1]!] === undefined) out.env[m[1]!] = m[2]!;
  }
  if (words[i] !== 'node') throw new Error(`${path}: the #! line runs '${words[i]}', not node`);
  out.nodeFlags = words.slice(i + 1);
  return out;
}

// Locating AutoDock Vina and Open Babel: the Debian packages install /usr/bin/vina and /usr/bin/obabel;
// EVIDENT_VINA and EVIDENT_OBABEL override the paths. Each tool is asked for its version, which both proves it
// runs and lets us refuse versions whose output this package does not read (Vina before 1.2 writes no
// REMARK INTER/INTRA/UNBOUND lines and a different --score_only report).
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { DockingUnavailableError } from '../errors.js';
import { runTool } from '../process/run.js';

export interface ToolInfo {
  path: string;
  version: string;
}

export interface DockingTools {
  vina: ToolInfo;
  obabel: ToolInfo;
}

/** The oldest versions whose output formats this package parses. */
export const MIN_VERSIONS = { vina: [1, 2, 0], obabel: [3, 0, 0] } as const;

let cached: Promise<DockingTools> | undefined;

/**
 * Finds both tools (cached for the process; `refresh` looks again). Throws DockingUnavailableError
 * (`docking_unavailable`) naming the missing or unusable tool.
 */
export function findDockingTools(options: { refresh?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<DockingTools> {
  if (options.refresh || options.env) cached = undefined;
  const env = options.env ?? process.env;
  cached ??= (async () => {
    const [vina, obabel] = await Promise.allSettled([
      probe('vina', env.EVIDENT_VINA, ['--version'], /AutoDock Vina v?(\d+\.\d+(?:\.\d+)?)/, env),
      probe('obabel', env.EVIDENT_OBABEL, ['-V'], /Open Babel (\d+\.\d+(?:\.\d+)?)/, env),
    ]);
    // Both looked up at once; when both fail, Vina's error is the one reported, whichever finished first.
    if (vina.status === 'rejected') throw vina.reason;
    if (obabel.status === 'rejected') throw obabel.reason;
    return { vina: vina.value, obabel: obabel.value };
  })();
  // A failed lookup is not cached: installing the tool and calling again must work without a restart.
  const mine = cached;
  mine.catch(() => {
    if (cached === mine) cached = undefined;
  });
  return mine;
}

async function probe(
  tool: 'vina' | 'obabel',
  override: string | undefined,
  args: string[],
  versionPattern: RegExp,
  env: NodeJS.ProcessEnv,
): Promise<ToolInfo> {
  const envName = tool === 'vina' ? 'EVIDENT_VINA' : 'EVIDENT_OBABEL';
  let path: string | undefined;
  if (override !== undefined && override !== '') {
    if (!isAbsolute(override))
      throw new DockingUnavailableError(tool, `${envName}=${override} is not an absolute path`);
    if (!isExecutable(override))
      throw new DockingUnavailableError(tool, `${envName}=${override} is not an executable file`);
    path = override;
  } else {
    path = onPath(tool, env.PATH ?? '');
    if (!path) throw new DockingUnavailableError(tool, 'was not found on PATH');
  }
  let text: string;
  try {
    const r = await runTool(path, args, { step: `${tool} version check`, timeoutMs: 15_000, okCodes: [0, 1] });
    text = r.stdout + r.stderr;
  } catch (e) {
    throw new DockingUnavailableError(tool, `at ${path} did not run: ${(e as Error).message}`);
  }
  const m = versionPattern.exec(text);
  if (!m) throw new DockingUnavailableError(tool, `at ${path} did not report a version`);
  const version = m[1]!;
  if (compareVersions(version, MIN_VERSIONS[tool]) < 0) {
    throw new DockingUnavailableError(
      tool,
      `at ${path} is version ${version}; ${MIN_VERSIONS[tool].join('.')} or later is needed`,
    );
  }
  return { path, version };
}

function onPath(name: string, pathVar: string): string | undefined {
  for (const dir of pathVar.split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, name);
    if (isExecutable(p)) return p;
  }
  return undefined;
}

function isExecutable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

export function compareVersions(version: string, min: readonly number[]): number {
  const parts = version.split('.').map(Number);
  for (let i = 0; i < min.length; i++) {
    const d = (parts[i] ?? 0) - min[i]!;
    if (d !== 0) return d;
  }
  return 0;
}

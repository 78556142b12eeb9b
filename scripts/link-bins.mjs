#!/usr/bin/env node
// After `tsc -b`: make every workspace bin executable and linked in node_modules/.bin.
// npm links bins at install time, before `prepare` has built dist/, so on a fresh clone the targets do not
// exist yet and npm can neither mark them executable nor (for some npm versions) link them.
import { readFileSync, existsSync, chmodSync, mkdirSync, symlinkSync, lstatSync, unlinkSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { workspaces } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const binDir = join(root, 'node_modules', '.bin');
mkdirSync(binDir, { recursive: true });

for (const ws of workspaces) {
  const pkg = JSON.parse(readFileSync(join(root, ws, 'package.json'), 'utf8'));
  for (const [name, file] of Object.entries(pkg.bin ?? {})) {
    const target = join(root, ws, file);
    if (!existsSync(target)) {
      console.error(`link-bins: ${pkg.name} bin ${name} -> ${file} was not built`);
      process.exitCode = 1;
      continue;
    }
    chmodSync(target, 0o755);
    const link = join(binDir, name);
    try {
      if (lstatSync(link)) unlinkSync(link);
    } catch {
      /* no link yet */
    }
    symlinkSync(relative(binDir, target), link);
  }
}

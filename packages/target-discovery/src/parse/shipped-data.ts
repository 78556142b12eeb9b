// The tables shipped gzipped in the package's data/ folder (the gene table, the GO sets), read from the sources
// (src/<folder>/, two levels below the package) or from the build (one level deeper).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

/** The text of data/<name>, gunzipped; throws naming the file when the package lacks it. */
export function readShippedTable(name: string): string {
  const file = [`../../data/${name}`, `../../../data/${name}`]
    .map((c) => fileURLToPath(new URL(c, import.meta.url)))
    .find((p) => existsSync(p));
  if (!file) throw new Error(`target-discovery: data/${name} is missing from the package`);
  return gunzipSync(readFileSync(file)).toString('utf8');
}

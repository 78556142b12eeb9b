// The README's examples run verbatim (a new user's first lines): parsed by Node, run in an empty directory
// against the package's sources (@evident/testkit, readme.ts).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testReadmeExamples } from '@evident/testkit';

const fixture = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', '2src.pdb');
testReadmeExamples('packages/protein-structure/README.md', { files: [fixture] });

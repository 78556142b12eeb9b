// The README's examples run verbatim (a new user's first lines): parsed by Node, run in an empty directory
// against the package's sources (@evident/testkit, readme.ts).
import { testReadmeExamples } from '@evident/testkit';

testReadmeExamples('packages/compound-generation/README.md');

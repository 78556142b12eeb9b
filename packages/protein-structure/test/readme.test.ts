// The README's examples run verbatim from the repository root, reading 2SRC from where they say it is
// (@evident/testkit, readme.ts).
import { testReadmeExamples } from '@evident/testkit';

testReadmeExamples('packages/protein-structure/README.md');

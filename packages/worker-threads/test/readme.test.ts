// The README's examples run verbatim from the repository root (@evident/testkit, readme.ts).
import { testReadmeExamples } from '@evident/testkit';

testReadmeExamples('packages/worker-threads/README.md');

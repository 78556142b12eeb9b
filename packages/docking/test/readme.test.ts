// The README's examples run verbatim from the repository root, reading 2SRC from where they say it is
// (@evident/testkit, readme.ts); skipped, with the reason, without Vina and Open Babel.
import { testReadmeExamples } from '@evident/testkit';
import { toolsOrSkip } from './helpers.js';

const { skip } = await toolsOrSkip();
testReadmeExamples('packages/docking/README.md', { skip });

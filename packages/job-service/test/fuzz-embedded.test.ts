import { fuzzSuite } from './fuzz-suite.js';
import { startTestServer } from './helpers.js';

fuzzSuite('embedded', (over) => startTestServer(over));

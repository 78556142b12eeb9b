import { errorsSuite } from './errors-suite.js';
import { startTestServer } from './helpers.js';

errorsSuite('embedded', (over) => startTestServer(over));

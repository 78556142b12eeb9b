import { contractSuite } from './contract.js';
import { startTestServer } from './helpers.js';

contractSuite('embedded', () => startTestServer());

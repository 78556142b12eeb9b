// @ts-check
// What the topics and query views (topics.js, query.js) use from the page.
import { api } from './api.js';
import { colorOf, enc, h } from './dom.js';

export const views = { api, h, enc, colorOf };

import { quickstart } from '../src/index.js';
const db = await quickstart('/tmp/smoke-kb/' + Date.now() + '.kb');
db.on('claim_corroborated', (e) => console.log('corroborated', e));
const id = await db.ingest(['BRCA1', 'gene'], ['associated_with', 'association'], ['breast cancer', 'disease'], { source_type: 'literature', source_id: 'pmid:1' });
await db.ingest([' brca1 ', 'Gene'], ['associated_with', 'association'], ['Breast Carcinoma', 'disease'], { source_type: 'database', source_id: 'omim:1' }, { confidence: 0.9 });
await db.ingest(['trastuzumab', 'drug'], ['targets', 'pharmacology'], ['HER2', 'protein'], { source_type: 'database', source_id: 'drugbank' });
await db.ingest(['Herceptin', 'drug'], ['treats', 'pharmacology'], ['breast cancer', 'disease'], { source_type: 'database', source_id: 'drugbank' });
console.log(id, await db.resolve(' brca1 '), await db.resolve('Herceptin'));
console.log(JSON.stringify(await db.query('BRCA1', { depth: 2 }), null, 1));
console.log(await db.stats());
console.log(await db.knowledgeHealth());
try { await db.ingest(['x', 'drug'], ['encodes', 'genetic'], ['y', 'protein'], { source_type: 'db', source_id: 's' }); } catch (e) { console.log(String(e), (e as any).code, (e as any).field); }
await db.close();

// `npm run secrets:rotate`: re-encrypts every secret stored at rest under the current ENCRYPTION_KEY. Run it with the
// same configuration as the deployment (DATABASE_URL, ENCRYPTION_KEY = the new key, ENCRYPTION_KEY_PREVIOUS = the
// old one), after the Workers already run with both; README "Rotating ENCRYPTION_KEY" has the whole procedure.
import { loadConfig } from '../lib/config';
import { reencryptStoredSecrets } from '../lib/crypto/rotate';
import { createNodeServices } from '../lib/runtime/node';

const config = loadConfig({ ...process.env, LOG_LEVEL: 'error' });
if (!config.ENCRYPTION_KEY || !config.ENCRYPTION_KEY_PREVIOUS) {
  console.error('secrets:rotate needs ENCRYPTION_KEY (the new key) and ENCRYPTION_KEY_PREVIOUS (the key being retired).');
  process.exit(2);
}
const services = await createNodeServices(config);
try {
  const report = await reencryptStoredSecrets(services.db, services.secrets);
  for (const r of report) {
    console.log(`${r.store}: ${r.rows} stored, ${r.reencrypted} re-encrypted, ${r.alreadyCurrent} already on the current key, ${r.changedMeanwhile} changed meanwhile (left as set)`);
  }
  const left = report.reduce((n, r) => n + r.changedMeanwhile, 0);
  console.log(left === 0 ? 'done: nothing is left on the previous key; ENCRYPTION_KEY_PREVIOUS can be removed' : 'run it again to pick up the rows that changed meanwhile');
} finally {
  await services.close();
}

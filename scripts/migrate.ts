// `npm run db:migrate`: applies the checked-in migrations to DATABASE_URL through the same Neon driver the
// Workers use (the embedded database migrates itself when it opens).
import { migrate } from 'drizzle-orm/neon-serverless/migrator';
import { WebSocket } from 'ws';
import { loadConfig } from '../lib/config';
import { openNeon } from '../lib/db/neon';
import { MIGRATIONS_DIR } from '../lib/db/migrations_dir';

const config = loadConfig(process.env);
if (!config.DATABASE_URL) {
  console.error('DATABASE_URL is not set: nothing to migrate (the embedded database migrates itself on start).');
  process.exit(1);
}
const database = openNeon(config.DATABASE_URL, { webSocketConstructor: WebSocket, wsProxy: config.NEON_WS_PROXY, insecure: config.NEON_INSECURE_WS });
await migrate(database.db as never, { migrationsFolder: MIGRATIONS_DIR });
await database.close();
console.log(`migrations in ${MIGRATIONS_DIR} applied`);

// Node only: where drizzle-kit writes the checked-in migrations.
import { fileURLToPath } from 'node:url';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../schema/migrations', import.meta.url));

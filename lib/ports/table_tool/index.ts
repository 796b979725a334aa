import type { Config } from '../../config';
import { createHttpTableTool } from './http';
import type { TableTool } from './port';
import { createSimTableTool } from './sim';

/** The table-tool adapter TABLE_TOOL names: `sim` (default; rows in sim_table_posts) or `http` (real POSTs). */
export function createTableTool(config: Pick<Config, 'TABLE_TOOL' | 'SIM_SEED'>): TableTool {
  return config.TABLE_TOOL === 'http' ? createHttpTableTool() : createSimTableTool({ seed: config.SIM_SEED });
}

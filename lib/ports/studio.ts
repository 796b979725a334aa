import type { Config } from '../config';
import { createDnsPort } from './dns';
import type { DnsPort } from './dns/port';
import { createEnrichmentPort } from './enrichment';
import type { EnrichmentPort } from './enrichment/port';
import { createEmailFinder } from './finder';
import type { EmailFinder } from './finder/port';
import { createTableTool } from './table_tool';
import type { TableTool } from './table_tool/port';

/** The Studio's outside effects (agency-operator.md §6), each a production adapter or its simulation by configuration. */
export type StudioPorts = { dns: DnsPort; finder: EmailFinder; tableTool: TableTool; enrichment: EnrichmentPort };

export function createStudioPorts(config: Config): StudioPorts {
  return { dns: createDnsPort(config), finder: createEmailFinder(config), tableTool: createTableTool(config), enrichment: createEnrichmentPort(config) };
}

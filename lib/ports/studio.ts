import type { Config } from '../config';
import { createDnsPort } from './dns';
import type { DnsPort } from './dns/port';
import { createEnrichmentPort } from './enrichment';
import type { EnrichmentPort } from './enrichment/port';
import { createEmailFinder } from './finder';
import type { EmailFinder } from './finder/port';
import { createDnsRecords } from './dns_records';
import type { DnsRecords } from './dns_records/port';
import { createMailboxProvider } from './mailbox_provider';
import type { MailboxProvider } from './mailbox_provider/port';
import { createRegistrar } from './registrar';
import type { Registrar } from './registrar/port';
import { createTableTool } from './table_tool';
import type { TableTool } from './table_tool/port';
import { createWarmupHealth } from './warmup';
import type { WarmupHealth } from './warmup/port';
import { createSequencer } from './sequencer';
import type { Sequencer } from './sequencer/port';

/** The Studio's outside effects (agency-operator.md §6), each a production adapter or its simulation by configuration. */
export type StudioPorts = {
  dns: DnsPort;
  finder: EmailFinder;
  tableTool: TableTool;
  enrichment: EnrichmentPort;
  registrar: Registrar;
  dnsRecords: DnsRecords;
  mailboxProvider: MailboxProvider;
  warmup: WarmupHealth;
  sequencer: Sequencer;
};

export function createStudioPorts(config: Config): StudioPorts {
  return {
    dns: createDnsPort(config),
    finder: createEmailFinder(config),
    tableTool: createTableTool(config),
    enrichment: createEnrichmentPort(config),
    registrar: createRegistrar(config),
    dnsRecords: createDnsRecords(config),
    mailboxProvider: createMailboxProvider(config),
    warmup: createWarmupHealth(config),
    sequencer: createSequencer(config),
  };
}

// The writer port: what start_writing and the rewrite_batch step ask of a writing engine. The offline engine
// (./offline.ts) is the adapter every test, demo and bench runs; a hosted model adapter would sit beside it behind
// the same interface and must answer sentences with their sources (an unsourced sentence gets source null).
import type { SequenceStep, WrittenMail } from '../../schema';
import type { RuleSpec } from '../learning/rules';

/** One lead as the writer may see it: only the values it may put in a mail (custom columns switched on for writing). */
export type WriterLead = { id: string; values: Readonly<Record<string, string | null>> };

export type ActiveRule = { id: string; spec: RuleSpec };

/** Everything a writing round is written from besides the leads; the same context and lead give the same mails. */
export type WriterContext = {
  steps: readonly SequenceStep[];
  senderName: string;
  /** The client's playbook in force: its signature signs the first mail. */
  playbook: { version: number; signature: string | null } | null;
  agencyDocs: string;
  rules: readonly ActiveRule[];
};

export type WrittenLead = { leadId: string; mails: WrittenMail[]; rulesUsed: string[] };

export interface BatchWriter {
  /** Writes every lead's mails, in the order given. Deterministic for the offline engine. */
  write(ctx: WriterContext, leads: readonly WriterLead[]): Promise<WrittenLead[]>;
}

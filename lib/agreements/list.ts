import { and, asc, eq, type SQL } from 'drizzle-orm';
import { agreements } from '../../schema';
import { findClient } from '../agency/clients/view';
import type { AgencyCall } from '../agency/operation';
import type { Db } from '../db/types';
import { agreementView, type AgreementRow } from './view';

/** The active agreements of an organization, or of one of its clients: oldest client first, then by kind and label. */
export async function activeAgreements(db: Db, orgId: string, clientId?: string): Promise<AgreementRow[]> {
  const where: SQL[] = [eq(agreements.orgId, orgId), eq(agreements.active, true)];
  if (clientId) where.push(eq(agreements.clientId, clientId));
  return db
    .select()
    .from(agreements)
    .where(and(...where))
    .orderBy(asc(agreements.clientId), asc(agreements.kind), asc(agreements.label), asc(agreements.id));
}

/** get_agreements: replaced agreements stay in the audit trail, not in this list. */
export async function listAgreements(call: AgencyCall, input: { client_id?: string }) {
  const { db } = call.services;
  if (input.client_id) await findClient(db, call.auth.orgId, input.client_id);
  return { agreements: (await activeAgreements(db, call.auth.orgId, input.client_id)).map(agreementView) };
}

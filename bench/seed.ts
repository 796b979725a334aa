import { sql } from 'drizzle-orm';
import type { Db } from '../lib/db/types';
import { createCampaign, createClient, createKey, createOrg } from '../lib/orgs/admin';

/** Bulk-seeds one organization with `leads` leads (one reply and thread row each) in a few statements. */
export async function seedLeads(db: Db, leads: number) {
  const org = await createOrg(db, { name: 'bench org' });
  const client = await createClient(db, org.id, { name: 'bench client' });
  const campaigns = [];
  for (let i = 0; i < 10; i++) campaigns.push(await createCampaign(db, org.id, { name: `bench campaign ${i}`, client_id: client.id, sent: 5000 }, new Date()));
  const ids = campaigns.map((c) => c.id);
  await db.execute(sql`
    insert into leads (org_id, campaign_id, email, name, classification, reply_count, last_reply_at, updated_at)
    select ${org.id}::uuid, (${sql.raw(`array[${ids.map((i) => `'${i}'::uuid`).join(',')}]`)})[1 + (g % 10)],
           'lead' || g || '@bench.example', 'Lead ' || g,
           (array['hot','warm','cold','not_interested','ooo'])[1 + (g % 5)], 1,
           now() - (g || ' minutes')::interval, now()
    from generate_series(1, ${leads}) g`);
  await db.execute(sql`
    insert into replies (org_id, lead_id, campaign_id, from_email, from_name, body, body_stripped, classification, received_at)
    select org_id, id, campaign_id, email, name, 'Thanks, tell me more about pricing.', 'Thanks, tell me more about pricing.', classification, last_reply_at
    from leads where org_id = ${org.id}`);
  await db.execute(sql`
    insert into thread_messages (org_id, lead_id, reply_id, role, content, at)
    select org_id, lead_id, id, 'reply', body_stripped, received_at from replies where org_id = ${org.id}`);
  // As the write paths keep it (lib/ingest, lib/sending): the conversation's latest message.
  await db.execute(sql`
    update leads set last_activity_at = (select max(tm.at) from thread_messages tm where tm.lead_id = leads.id) where org_id = ${org.id}`);
  const result = (await db.execute(sql`select id from replies where org_id = ${org.id} order by received_at desc limit 1 offset 500`)) as unknown as { rows: { id: string }[] };
  // Many keys, so the benchmark measures the limit checks without being refused by them (1,000/min per key).
  const keys: string[] = [];
  const keyIds: string[] = [];
  for (let i = 0; i < 60; i++) {
    const created = await createKey(db, org.id, { name: `bench key ${i}`, rate_limit_per_minute: 1000 });
    keys.push(created.secret);
    keyIds.push(created.key.id);
  }
  return { org, keys, keyIds, replyId: result.rows[0].id };
}

// Segments: filters over the pool saved by name (save_segment replaces by name), listed with their counts, and
// read page by page (segment_results) by id or with inline filters. Both faces give the same answer.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { segments } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { addPoolColumn, addPoolLeads, auditOf, studioTenant, type StudioTenant } from './pool_reads_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const emailsOf = (body: { leads: { email: string | null }[] }) => body.leads.map((l) => l.email);

async function pool(a: StudioTenant) {
  await addPoolLeads(env, a.t, [
    { email: 'a@de.com', country: 'Germany', volumeBand: 'high' },
    { email: 'b@de.com', country: 'Germany', volumeBand: 'low' },
    { email: 'c@at.com', country: 'Austria', volumeBand: 'medium', status: 'pushed' },
    { email: 'd@fr.com', country: 'France', volumeBand: 'high' },
    { email: 'e@de.com', country: 'Germany', volumeBand: 'medium' },
  ]);
}

describe('save_segment and list_segments', () => {
  it('saves a filter by name with its count; the same name replaces the filter and keeps the id; one audit row per save', async () => {
    const a = await studioTenant(env);
    await pool(a);
    const saved = await a.rest('POST', `${a.base}/segments`, { name: 'DACH medium+', filter: { country: ['Germany', 'Austria'], volume_band_min: 'medium' } });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json.segment).toMatchObject({ name: 'DACH medium+', filter: { country: ['Germany', 'Austria'], volume_band_min: 'medium' }, leads: 3 });
    // The same call through the tool: same segment, same answer apart from updated_at.
    const again = await a.tool('save_segment', { client_id: a.t.client.id, name: ' DACH medium+ ', filter: { country: ['Germany', 'Austria'], volume_band_min: 'medium' } });
    expect(again.isError, again.text).toBe(false);
    expect(again.json.segment.id).toBe(saved.json.segment.id);
    expect(again.json.segment.leads).toBe(3);
    const replaced = await a.tool('save_segment', { client_id: a.t.client.id, name: 'DACH medium+', filter: { country: 'Germany', not_contacted: true } });
    expect(replaced.json.segment).toMatchObject({ id: saved.json.segment.id, filter: { country: ['Germany'], not_contacted: true }, leads: 3 });
    await a.rest('POST', `${a.base}/segments`, { name: 'Everyone', filter: {} });
    const rows = await env.services.db.select().from(segments).where(eq(segments.clientId, a.t.client.id));
    expect(rows).toHaveLength(2);

    const listed = await a.read('list_segments', `${a.base}/segments`);
    expect(listed.segments.map((s: any) => [s.name, s.leads])).toEqual([
      ['DACH medium+', 3],
      ['Everyone', 5],
    ]);
    const audit = (await auditOf(env, a.t)).filter((e) => e.action === 'segment.saved');
    expect(audit.map((e) => e.actor)).toEqual([expect.stringMatching(/^key:/), expect.stringMatching(/^mcp:/), expect.stringMatching(/^mcp:/), expect.stringMatching(/^key:/)]);
    expect(audit[0].target).toBe(`segment:${saved.json.segment.id}`);
  });

  it('refuses a malformed filter or name (naming it) and an ICP of another client; writes nothing', async () => {
    const a = await studioTenant(env);
    for (const body of [
      { name: 'x', filter: { volume_band_min: 'huge' } },
      { name: 'x', filter: { colour: 'red' } },
      { name: 'x', filter: { limit: 5 } },
      { name: '', filter: {} },
      { name: 'x' },
      { name: 'x', filter: { country: [] } },
    ]) {
      const r = await a.rest('POST', `${a.base}/segments`, body);
      expect([r.status, r.json.error.code], JSON.stringify(body)).toEqual([400, 'validation_error']);
    }
    const clientB = await a.t.addClient('Client B');
    const icpB = await a.t.admin('POST', `/admin/v1/clients/${clientB.id}/icps`, { name: 'B only', rules: { countries: ['DE'] } });
    const r = await a.rest('POST', `${a.base}/segments`, { name: 'x', filter: { icp_id: icpB.json.icp.id } });
    expect([r.status, r.json.error.code]).toEqual([404, 'not_found']);
    expect(await env.services.db.select().from(segments).where(eq(segments.orgId, a.t.org.id))).toEqual([]);
    expect((await auditOf(env, a.t)).filter((e) => e.action === 'segment.saved')).toEqual([]);
  });
});

describe('segment_results', () => {
  it("pages a saved segment's leads and inline filters alike, with the segment (or null) and the filter applied", async () => {
    const a = await studioTenant(env);
    await pool(a);
    const saved = await a.rest('POST', `${a.base}/segments`, { name: 'Germany', filter: { country: 'germany' } });
    const first = await a.read('segment_results', `${a.base}/segments/results`, { segment_id: saved.json.segment.id, limit: 2 });
    expect(first.segment).toMatchObject({ id: saved.json.segment.id, name: 'Germany', leads: 3 });
    expect(first.filter).toEqual({ country: ['germany'] });
    expect(emailsOf(first)).toEqual(['a@de.com', 'b@de.com']);
    expect(first.next_offset).toBe(2);
    const second = await a.read('segment_results', `${a.base}/segments/results`, { segment_id: saved.json.segment.id, limit: 2, offset: 2 });
    expect(emailsOf(second)).toEqual(['e@de.com']);
    expect(second.next_offset).toBeNull();

    const inline = await a.read('segment_results', `${a.base}/segments/results`, { volume_band_min: 'high', not_contacted: true });
    expect(inline.segment).toBeNull();
    expect(inline.filter).toEqual({ volume_band_min: 'high', not_contacted: true });
    expect(emailsOf(inline)).toEqual(['a@de.com', 'd@fr.com']);
    expect(inline.leads[0].contact_check).toMatchObject({ pool: true, studio_campaigns: true, replies: true });
    // No filter at all: the whole pool without removed leads.
    expect((await a.read('segment_results', `${a.base}/segments/results`)).leads).toHaveLength(5);

    await addPoolColumn(env, a.t, 'phone');
    const cols = await a.read('segment_results', `${a.base}/segments/results`, { segment_id: saved.json.segment.id, columns: ['phone'] });
    expect(cols.leads[0].custom).toEqual({ phone: null });
  });

  it("refuses segment_id together with inline filters, and answers not_found for another client's segment", async () => {
    const a = await studioTenant(env);
    const saved = await a.rest('POST', `${a.base}/segments`, { name: 'All', filter: {} });
    const both = await a.rest('GET', `${a.base}/segments/results?segment_id=${saved.json.segment.id}&country=Germany`);
    expect([both.status, both.json.error.code]).toEqual([400, 'validation_error']);
    expect(both.json.error.message).toContain('segment_id');

    const clientB = await a.t.addClient('Client B');
    const [segB] = await env.services.db
      .insert(segments)
      .values({ orgId: a.t.org.id, clientId: clientB.id, name: 'B', filter: {}, createdBy: 'test' })
      .returning();
    const r = await a.rest('GET', `${a.base}/segments/results?segment_id=${segB.id}`);
    expect([r.status, r.json.error.code]).toEqual([404, 'not_found']);
    const tr = await a.tool('segment_results', { client_id: a.t.client.id, segment_id: segB.id });
    expect(tr.json.error.code).toBe('not_found');
    // Client B's segment is not in client A's list.
    const listed = await a.read('list_segments', `${a.base}/segments`);
    expect(listed.segments.map((s: any) => s.name)).toEqual(['All']);
    const other = await studioTenant(env);
    const foreign = await other.rest('GET', `${other.base}/segments/results?segment_id=${saved.json.segment.id}`);
    expect(foreign.status).toBe(404);
    expect(await env.services.db.select().from(segments).where(and(eq(segments.orgId, a.t.org.id)))).toHaveLength(2);
  });
});

// Replies in from the sending tools: inbound sources (admin), their authentication, the generic format through the
// one ingestion path, campaign matching, de-duplication, paused sources, HTML bodies and refusals.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaigns, inboundMessages, inboundSources, leads, replies } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant, randomIp, request } from '../helpers/tenant';
import { fixture } from '../inbound/fixtures';
import { addSource, deliver, genericReply } from './inbound_helpers';
import { eventsOf, trail } from './send_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({ PUBLIC_BASE_URL: 'https://replies.example.com' });
});
afterAll(() => env.close());

const db = () => env.services.db;

describe('inbound sources (admin)', () => {
  it('creates a source: its URL under PUBLIC_BASE_URL, the secret once, only its hash stored, a trail row', async () => {
    const t = await newTenant(env);
    const r = await t.admin('POST', `/admin/v1/orgs/${t.org.id}/inbound-sources`, { provider: 'instantly', name: 'Instantly EU' });
    expect(r.status).toBe(201);
    expect(r.json.source).toMatchObject({ provider: 'instantly', name: 'Instantly EU', status: 'active', last_received_at: null });
    expect(r.json.source.url).toBe(`https://replies.example.com/v1/inbound/${r.json.source.id}`);
    expect(r.json.secret).toMatch(/^insec_[A-Za-z0-9]{40,}$/);
    expect(r.json.source.secret_hint).toBe(r.json.secret.slice(-4));
    const [row] = await db().select().from(inboundSources).where(eq(inboundSources.id, r.json.source.id));
    expect(row.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(r.json.secret);

    const list = await t.admin('GET', `/admin/v1/orgs/${t.org.id}/inbound-sources`);
    expect(list.json.sources).toEqual([r.json.source]);
    expect(list.text).not.toContain(r.json.secret);
    const decisions = (await t.admin('GET', `/admin/v1/orgs/${t.org.id}/decisions`)).json.decisions;
    expect(decisions[0]).toMatchObject({ actor: 'admin', action: 'inbound_source.created', detail: { source_id: r.json.source.id, provider: 'instantly' } });
    expect(JSON.stringify(decisions)).not.toContain(r.json.secret);
  });

  it('refuses an unknown provider, unknown fields and an unknown organization', async () => {
    const t = await newTenant(env);
    const bad = await t.admin('POST', `/admin/v1/orgs/${t.org.id}/inbound-sources`, { provider: 'mailchimp' });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/^provider:/);
    expect((await t.admin('POST', `/admin/v1/orgs/${t.org.id}/inbound-sources`, { provider: 'generic', extra: 1 })).status).toBe(400);
    const missing = await t.admin('POST', `/admin/v1/orgs/00000000-0000-4000-8000-000000000000/inbound-sources`, { provider: 'generic' });
    expect(missing.status).toBe(404);
    expect((await t.admin('PATCH', `/admin/v1/inbound-sources/00000000-0000-4000-8000-000000000000`, { status: 'paused' })).status).toBe(404);
  });
});

describe('POST /v1/inbound/{source_id} authentication', () => {
  it('accepts the secret in x-inbound-secret, Authorization: Bearer or ?token=', async () => {
    const t = await newTenant(env);
    const source = await addSource(t);
    for (const auth of ['header', 'bearer', 'query'] as const) {
      const r = await deliver(env, source, genericReply(), { auth });
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ ok: true, duplicate: false, ignored: false });
    }
  });

  it('answers 401 to a missing or wrong secret, another source\'s secret and an unknown or malformed source id, storing nothing', async () => {
    const t = await newTenant(env);
    const source = await addSource(t);
    const other = await addSource(await newTenant(env));
    const attempts = [
      deliver(env, source, genericReply(), { auth: 'none' }),
      deliver(env, source, genericReply(), { secret: `${source.secret}x` }),
      deliver(env, source, genericReply(), { secret: source.secret.slice(0, -1) }),
      deliver(env, source, genericReply(), { secret: other.secret }),
      deliver(env, source, genericReply(), { auth: 'bearer', secret: 'insec_guess' }),
      deliver(env, source, genericReply(), { auth: 'query', secret: '' }),
      deliver(env, { ...source, id: '00000000-0000-4000-8000-000000000000' }, genericReply()),
      deliver(env, { ...source, id: 'not-a-uuid' }, genericReply()),
      deliver(env, { ...source, id: '-'.repeat(36) }, genericReply()),
      deliver(env, { ...source, id: 'g'.repeat(8) + source.id.slice(8) }, genericReply()),
    ];
    for (const r of await Promise.all(attempts)) {
      expect(r.status).toBe(401);
      expect(r.json.error).toEqual({ code: 'unauthorized', message: 'unknown inbound source or wrong secret' });
    }
    expect(await db().select().from(replies).where(eq(replies.orgId, t.org.id))).toEqual([]);
  });

  it('an API key is not a source secret, and a source secret is not an API key', async () => {
    const t = await newTenant(env);
    const source = await addSource(t);
    const r = await deliver(env, source, genericReply(), { secret: t.key });
    expect(r.status).toBe(401);
    const me = await t.call('GET', '/v1/me', { key: source.secret });
    expect(me.status).toBe(401);
  });
});

describe('generic deliveries through the one ingestion path', () => {
  it('stores the reply: lead, thread, classification, lead.replied, campaign created under its name and id', async () => {
    const t = await newTenant(env);
    const source = await addSource(t);
    const payload = genericReply({ from_email: 'Ana@Prospect.io', from_name: 'Ana', campaign: { id: 'inst-42', name: 'Spring Push' } });
    const r = await deliver(env, source, payload);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ ok: true, duplicate: false, ignored: false, classification: 'hot', opted_out: false });
    const [campaign] = await db().select().from(campaigns).where(eq(campaigns.id, r.json.campaign_id));
    expect(campaign).toMatchObject({ orgId: t.org.id, name: 'Spring Push', providerCampaignId: 'inst-42', replied: 1 });

    const got = await t.call('GET', `/v1/replies/${r.json.reply_id}`);
    expect(got.status).toBe(200);
    expect(got.json.reply).toMatchObject({ from_email: 'ana@prospect.io', from_name: 'Ana', campaign_name: 'Spring Push', classification: 'hot', received_at: '2026-11-20T10:00:00.000Z', body_html: null });
    expect(got.json.thread).toEqual([{ role: 'reply', content: payload.text }]);
    const [reply] = await db().select().from(replies).where(eq(replies.id, r.json.reply_id));
    expect(reply).toMatchObject({ sourceId: source.id, toEmail: 'sam@agency-mail.com', rfcMessageId: payload.message_id, inReplyTo: '<c1@agency-mail.com>', subject: payload.subject });
    const kinds = (await eventsOf(env, t.org.id, r.json.reply_id)).map((e) => e.kind);
    expect(kinds).toEqual(['lead.replied']);
    const [source_] = await db().select().from(inboundSources).where(eq(inboundSources.id, source.id));
    expect(source_.lastReceivedAt).not.toBeNull();
  });

  it('matches the campaign by provider id first, then adopts a same-named campaign without one', async () => {
    const t = await newTenant(env);
    const source = await addSource(t);
    const untooled = await t.admin('POST', `/admin/v1/orgs/${t.org.id}/campaigns`, { name: 'Tagged', provider_campaign_id: 'sl-7' });
    expect(untooled.status).toBe(400);
    expect(untooled.json.error.message).toMatch(/^provider: required with provider_campaign_id/);
    const tagged = await t.admin('POST', `/admin/v1/orgs/${t.org.id}/campaigns`, { name: 'Tagged', provider: 'generic', provider_campaign_id: 'sl-7' });
    expect(tagged.json.campaign).toMatchObject({ provider: 'generic', provider_campaign_id: 'sl-7' });
    const taken = await t.admin('POST', `/admin/v1/orgs/${t.org.id}/campaigns`, { name: 'Again', provider: 'generic', provider_campaign_id: 'sl-7' });
    expect(taken.status).toBe(409);
    expect(taken.json.error.code).toBe('conflict');
    const byId = await deliver(env, source, genericReply({ campaign: { id: 'sl-7', name: 'A different name in the tool' } }));
    expect(byId.json.campaign_id).toBe(tagged.json.campaign.id);

    // "Campaign A" exists (newTenant) without a provider id: a delivery naming it teaches it the id.
    const byName = await deliver(env, source, genericReply({ campaign: { id: 'sl-8', name: 'campaign a' } }));
    expect(byName.json.campaign_id).toBe(t.campaign.id);
    const [learned] = await db().select().from(campaigns).where(eq(campaigns.id, t.campaign.id));
    expect(learned).toMatchObject({ provider: 'generic', providerCampaignId: 'sl-8' });
    const again = await deliver(env, source, genericReply({ campaign: { id: 'sl-8' } }));
    expect(again.json.campaign_id).toBe(t.campaign.id);
  });

  it('an unknown campaign id without a name is refused with 422 unknown_campaign, nothing stored', async () => {
    const t = await newTenant(env);
    const source = await addSource(t);
    const r = await deliver(env, source, genericReply({ campaign: { id: 'nope-1' } }));
    expect(r.status).toBe(422);
    expect(r.json.error.code).toBe('unknown_campaign');
    expect(r.json.error.message).toContain('nope-1');
    expect(await db().select().from(replies).where(eq(replies.orgId, t.org.id))).toEqual([]);
    // Refused, not claimed: the same message goes through once the campaign is known.
    const tagged = await t.admin('PATCH', `/admin/v1/campaigns/${t.campaign.id}`, { provider: 'generic', provider_campaign_id: 'nope-1' });
    expect(tagged.status).toBe(200);
    expect((await deliver(env, source, genericReply({ campaign: { id: 'nope-1' } }))).status).toBe(200);
  });

  it('the same message delivered twice is stored once; the second answer says duplicate with the same ids', async () => {
    const t = await newTenant(env);
    const source = await addSource(t);
    const payload = genericReply();
    const first = await deliver(env, source, payload);
    const second = await deliver(env, source, payload, { auth: 'bearer' });
    expect(second.status).toBe(200);
    expect(second.json).toMatchObject({ duplicate: true, reply_id: first.json.reply_id, lead_id: first.json.lead_id });
    const stored = await db().select().from(replies).where(eq(replies.orgId, t.org.id));
    expect(stored).toHaveLength(1);
    const [lead] = await db().select().from(leads).where(eq(leads.id, first.json.lead_id));
    expect(lead.replyCount).toBe(1);
    // Another source of the same organization has its own message ids.
    const other = await addSource(t, 'generic', 'second tool');
    expect((await deliver(env, other, payload)).json.duplicate).toBe(false);
  });

  it('a paused source refuses deliveries with 423 source_paused until resumed', async () => {
    const t = await newTenant(env);
    const source = await addSource(t);
    const paused = await t.admin('PATCH', `/admin/v1/inbound-sources/${source.id}`, { status: 'paused' });
    expect(paused.json.source.status).toBe('paused');
    const payload = genericReply({ campaign: { id: 'brand-new', name: 'Brand new' } });
    const r = await deliver(env, source, payload);
    expect(r.status).toBe(423);
    expect(r.json.error.code).toBe('source_paused');
    expect(await db().select().from(inboundMessages).where(eq(inboundMessages.sourceId, source.id))).toEqual([]);
    await t.admin('PATCH', `/admin/v1/inbound-sources/${source.id}`, { status: 'active' });
    expect((await deliver(env, source, payload)).status).toBe(200);
    const actions = (await t.admin('GET', `/admin/v1/orgs/${t.org.id}/decisions`)).json.decisions.map((d: any) => d.action);
    expect(actions.filter((a: string) => a === 'inbound_source.updated')).toHaveLength(2);
  });

  it('an HTML-only reply: text for the thread and classifier without the quoted pitch; the HTML kept for GET', async () => {
    const t = await newTenant(env);
    const source = await addSource(t);
    const html =
      '<div dir="ltr">Yes, interested! Can we talk Thursday at 3pm?</div><br><div class="gmail_quote"><div class="gmail_attr">On Mon, Nov 16, 2026 at 9:00 AM Sam &lt;sam@agency-mail.com&gt; wrote:<br></div><blockquote class="gmail_quote">Hi Ana, we help teams book more meetings. Not interested? Just reply.</blockquote></div>';
    const r = await deliver(env, source, genericReply({ text: undefined, html }));
    expect(r.status).toBe(200);
    expect(r.json.classification).toBe('hot');
    const got = await t.call('GET', `/v1/replies/${r.json.reply_id}`);
    expect(got.json.reply.body_html).toBe(html);
    expect(got.json.reply.body).toContain('Yes, interested!');
    expect(got.json.thread).toEqual([{ role: 'reply', content: 'Yes, interested! Can we talk Thursday at 3pm?' }]);
  });

  it('ignores nothing silently: a body that is not the documented format is 400 naming the field; malformed JSON is 400', async () => {
    const t = await newTenant(env);
    const source = await addSource(t);
    const noEmail = await deliver(env, source, { ...genericReply(), from_email: undefined });
    expect(noEmail.status).toBe(400);
    expect(noEmail.json.error.code).toBe('validation_error');
    expect(noEmail.json.error.message).toContain('from_email');
    const broken = await deliver(env, source, null, { raw: '{"message_id": ' });
    expect(broken.status).toBe(400);
    expect(broken.json.error).toEqual({ code: 'validation_error', message: 'body: not valid JSON' });
    // An Instantly source takes Instantly's payload, not the generic format the document shows.
    expect(await db().select().from(replies).where(eq(replies.orgId, t.org.id))).toEqual([]);
  });

  it('two tools with the same campaign id are two campaigns', async () => {
    const t = await newTenant(env);
    const generic = await addSource(t, 'generic');
    const smartlead = await addSource(t, 'smartlead');
    const viaGeneric = await deliver(env, generic, genericReply({ campaign: { id: '42', name: 'Forty-two (generic)' } }));
    const body = fixture('smartlead_email_reply');
    body.campaign_id = 42;
    const viaSmartlead = await deliver(env, smartlead, body, { auth: 'query' });
    expect([viaGeneric.status, viaSmartlead.status]).toEqual([200, 200]);
    expect(viaSmartlead.json.campaign_id).not.toBe(viaGeneric.json.campaign_id);
    const rows = await db().select().from(campaigns).where(eq(campaigns.orgId, t.org.id));
    expect(rows.filter((c) => c.providerCampaignId === '42').map((c) => c.provider).sort()).toEqual(['generic', 'smartlead']);
  });

  it('refuses values no index can hold with a 400 naming them, and NUL in any content type', async () => {
    const t = await newTenant(env);
    const source = await addSource(t);
    const long = await deliver(env, source, genericReply({ message_id: 'm'.repeat(3000), campaign: { id: 'c'.repeat(3000), name: 'x' } }));
    expect(long.status).toBe(400);
    expect(long.json.error.message).toContain('message_id: longer than 512 characters');
    expect(long.json.error.message).toContain('campaign.id: longer than 200 characters');
    const longEmail = await deliver(env, source, genericReply({ from_email: `${'a'.repeat(60)}@${'b'.repeat(70)}.com` }));
    expect(longEmail.status).toBe(400);
    expect(longEmail.json.error.message).toMatch(/^from_email: /);
    // JSON.stringify escapes the NUL as \u0000: valid JSON that no Postgres text can hold.
    const raw = JSON.stringify(genericReply({ text: 'a\u0000b' }));
    const nul = await request(env, 'POST', `/v1/inbound/${source.id}`, { key: null, raw, headers: { 'content-type': 'text/plain', 'x-inbound-secret': source.secret }, ip: randomIp() });
    expect(nul.status).toBe(400);
    expect(nul.json.error.message).toContain('NUL');
    expect(await db().select().from(replies).where(eq(replies.orgId, t.org.id))).toEqual([]);
  });

  it('takes an HTML mail above the API body limit (up to 1 MB), refuses more with 413', async () => {
    const t = await newTenant(env);
    const source = await addSource(t);
    const history = '<blockquote type="cite">' + 'Earlier message text. '.repeat(4000) + '</blockquote>';
    const big = await deliver(env, source, genericReply({ text: undefined, html: `<p>Please send the pricing.</p>${history}` }));
    expect(big.status).toBe(200);
    const tooBig = await deliver(env, source, genericReply({ text: 'x'.repeat(1_100_000) }));
    expect(tooBig.status).toBe(413);
  });

  it("another organization's source never writes into this organization", async () => {
    const a = await newTenant(env);
    const b = await newTenant(env);
    const sourceB = await addSource(b);
    const r = await deliver(env, sourceB, genericReply({ campaign: { name: 'Campaign A' } }));
    expect(r.status).toBe(200);
    // B has its own "Campaign A": the reply lands there, never in A's campaign of the same name.
    expect(r.json.campaign_id).toBe(b.campaign.id);
    expect(await db().select().from(replies).where(eq(replies.orgId, a.org.id))).toEqual([]);
    const fromA = await a.call('GET', `/v1/replies/${r.json.reply_id}`);
    expect(fromA.status).toBe(404);
  });

  it('a trail row for the source configuration only; replies themselves are not governance decisions', async () => {
    const t = await newTenant(env);
    const source = await addSource(t);
    const r = await deliver(env, source, genericReply());
    expect(await trail(t, r.json.reply_id)).toEqual([]);
  });
});

// kill -9 of the service in the middle of direct sends and due follow-ups, then a restart on the same data:
// nothing is lost (every follow-up ends sent, every send can be completed) and nothing is sent twice (the outbox
// provider records exactly one message per reply, written in the transaction that marks the reply sent).
import { afterAll, describe, expect, it } from 'vitest';
import { childService } from '../helpers/child_service';
import { ADMIN_TOKEN, TIER } from '../helpers/harness';

const SENDS = 8;
const FOLLOWUPS = 4;
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});
const { storage, startChild, call, waitFor } = childService(cleanups);
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

async function raw(base: string, method: string, path: string, body: unknown, headers: Record<string, string>) {
  try {
    const res = await fetch(base + path, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: res.status, json: (await res.json()) as any };
  } catch {
    return { status: 0, json: null }; // the process died under the request
  }
}

describe(`kill -9 during sends and follow-ups (${TIER})`, () => {
  it('loses nothing and sends nothing twice after a restart', async () => {
    const env = await storage();
    let { child, base } = await startChild(env);
    const { org } = await call(base, 'POST', '/admin/v1/orgs', { name: 'send crash' }, admin);
    const { campaign } = await call(base, 'POST', `/admin/v1/orgs/${org.id}/campaigns`, { name: 'Campaign' }, admin);
    const replies: string[] = [];
    for (let i = 0; i < SENDS + FOLLOWUPS; i++) {
      const r = await call(base, 'POST', `/admin/v1/orgs/${org.id}/inbound-replies`, { campaign_id: campaign.id, from_email: `p${i}@prospect.com`, body: `Reply ${i}: yes, send details.` }, admin);
      replies.push(r.reply.id);
    }
    // One level-2 key per send: the 5-per-minute send limit is per key.
    const keys: string[] = [];
    for (let i = 0; i < SENDS; i++) keys.push((await call(base, 'POST', `/admin/v1/orgs/${org.id}/keys`, { name: `agent ${i}`, autonomy_level: 2 }, admin)).secret);
    const sendReplies = replies.slice(0, SENDS);
    const followReplies = replies.slice(SENDS);
    for (const replyId of followReplies) {
      await call(base, 'POST', `/admin/v1/orgs/${org.id}/followups`, { reply_id: replyId, kind: 'followup', due_at: new Date().toISOString(), body: 'Following up on my note.' }, admin);
    }

    let answered = 0;
    const inFlight = sendReplies.map((replyId, i) =>
      raw(base, 'POST', `/v1/replies/${replyId}/send`, { body: `Details for ${i}.` }, { 'x-service-key': keys[i] }).then((r) => {
        if (r.status === 200) answered++;
        return r;
      }),
    );
    // Kill as soon as the first send is answered: some sends have committed, others are still in flight.
    await waitFor(() => answered > 0, 20_000);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const first = await Promise.all(inFlight);
    const answeredBeforeKill = first.filter((r) => r.status === 200).length;
    expect(answeredBeforeKill).toBeGreaterThan(0);
    expect(answeredBeforeKill).toBeLessThan(SENDS); // the kill really cut sends off

    ({ child, base } = await startChild(env));
    // Clients retry what they did not see answered: the reply's own state makes a retry safe.
    for (const [i, replyId] of sendReplies.entries()) {
      if (first[i].status === 200) continue;
      const retry = await raw(base, 'POST', `/v1/replies/${replyId}/send`, { body: `Details for ${i}.` }, { 'x-service-key': keys[i] });
      expect([200, 409], JSON.stringify(retry.json)).toContain(retry.status);
      if (retry.status === 409) expect(retry.json.error.code).toBe('already_sent');
    }
    const followupsSent = async () => {
      const r = await raw(base, 'GET', `/admin/v1/orgs/${org.id}/followups`, undefined, admin);
      return (r.json?.followups ?? []).filter((f: any) => f.status === 'sent').length;
    };
    let sent = 0;
    expect(await waitFor(() => sent === FOLLOWUPS, 60_000, async () => (sent = await followupsSent()))).toBe(true);

    const outbox = (await raw(base, 'GET', `/admin/v1/orgs/${org.id}/outbox`, undefined, admin)).json.messages as { reply_id: string }[];
    const perReply = new Map<string, number>();
    for (const m of outbox) perReply.set(m.reply_id, (perReply.get(m.reply_id) ?? 0) + 1);
    for (const replyId of replies) expect(perReply.get(replyId), replyId).toBe(1);
    console.log(`send crash test (${TIER}): ${answeredBeforeKill} of ${SENDS} sends answered before SIGKILL; ${outbox.length} messages, one per reply`);
    child.kill('SIGTERM');
  }, 180_000);
});

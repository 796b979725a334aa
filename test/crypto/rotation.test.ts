// Rotating ENCRYPTION_KEY: with the old key as ENCRYPTION_KEY_PREVIOUS everything stored still decrypts, and
// `reencryptStoredSecrets` (npm run secrets:rotate) moves every stored secret to the new key, after which the old
// key is no longer needed.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domains, mailboxes, sendingProviders, tableDestinations, webhooks } from '../../schema';
import { createSecretBox, type SecretBox } from '../../lib/crypto/secret_box';
import { reencryptStoredSecrets } from '../../lib/crypto/rotate';
import { providerView } from '../../lib/mail/provider';
import { generateWebhookSecret } from '../../lib/webhooks/signing';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { TEST_ENCRYPTION_KEY } from '../helpers/harness_constants';
import { newTenant } from '../helpers/tenant';

const oldKey = randomBytes(32).toString('base64');
const newKey = randomBytes(32).toString('hex');

describe('SecretBox with a previous key', () => {
  it('decrypts blobs of either key, encrypts only with the current one, and re-encrypts only old blobs', async () => {
    const before = createSecretBox(oldKey);
    const during = createSecretBox(newKey, oldKey);
    const after = createSecretBox(newKey);
    const oldBlob = await before.encrypt('whsec_old');
    expect(await during.decrypt(oldBlob)).toBe('whsec_old');
    await expect(after.decrypt(oldBlob)).rejects.toThrow(/authentication failed/);

    const newBlob = await during.encrypt('whsec_new');
    expect(await after.decrypt(newBlob)).toBe('whsec_new');
    await expect(before.decrypt(newBlob)).rejects.toThrow(/authentication failed/);

    expect(await during.reencrypt(newBlob)).toBeNull();
    const moved = await during.reencrypt(oldBlob);
    expect(moved).not.toBeNull();
    expect(await after.decrypt(moved!)).toBe('whsec_old');
  });

  it('refuses a blob of a third key and a malformed blob', async () => {
    const during = createSecretBox(newKey, oldKey);
    const stranger = await createSecretBox(randomBytes(32).toString('base64')).encrypt('x');
    await expect(during.decrypt(stranger)).rejects.toThrow(/authentication failed/);
    await expect(during.reencrypt('v1.not-a-blob')).rejects.toThrow(/malformed/);
  });
});

describe('reencryptStoredSecrets', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await startTestEnv();
  });
  afterAll(() => env.close());

  it('moves every webhook and provider secret to the new key, once, and skips a row its owner changed meanwhile', async () => {
    const t = await newTenant(env);
    const created = await t.call('POST', '/v1/webhooks', { body: { name: 'crm', url: 'https://hooks.example.com/in', events: ['lead.replied'] } });
    expect(created.status).toBe(201);
    const providerSecret = generateWebhookSecret();
    const provider = await t.admin('PUT', `/admin/v1/orgs/${t.org.id}/sending-provider`, { kind: 'http', url: 'https://mail.example.com/send', secret: providerSecret });
    expect(provider.status).toBe(200);
    const second = await t.call('POST', '/v1/webhooks', { body: { name: 'other', url: 'https://hooks.example.com/other', events: ['lead.replied'] } });
    // The first webhook's secret was rolled: its replaced secret is stored too, and must move as well.
    const rolled = await t.call('POST', `/v1/webhooks/${created.json.webhook.id}/rotate-secret`, { body: { previous_secret_expires_in_hours: 24 } });
    expect(rolled.status).toBe(200);

    // The deployment now runs with the new key and the test's key as the previous one.
    const rotating = createSecretBox(newKey, TEST_ENCRYPTION_KEY);
    // The second webhook's owner rotates its secret while the run is under way: that row must be left as set.
    const ownerWrites = await createSecretBox(newKey).encrypt('whsec_set_by_owner');
    const racing: SecretBox = {
      ...rotating,
      reencrypt: async (blob) => {
        const [row] = await env.services.db.select().from(webhooks).where(eq(webhooks.id, second.json.webhook.id));
        if (row.secretEnc === blob) await env.services.db.update(webhooks).set({ secretEnc: ownerWrites }).where(eq(webhooks.id, second.json.webhook.id));
        return rotating.reencrypt(blob);
      },
    };
    const report = await reencryptStoredSecrets(env.services.db, racing);
    const hooks = report.find((r) => r.store === 'webhook secrets')!;
    expect(hooks).toMatchObject({ rows: 2, reencrypted: 1, changedMeanwhile: 1, alreadyCurrent: 0 });
    expect(report.find((r) => r.store === 'sending provider secrets')).toMatchObject({ rows: 1, reencrypted: 1 });
    expect(report.find((r) => r.store === 'rolled-over webhook secrets')).toMatchObject({ rows: 1, reencrypted: 1 });

    const newOnly = createSecretBox(newKey);
    const [hook] = await env.services.db.select().from(webhooks).where(eq(webhooks.id, created.json.webhook.id));
    expect(await newOnly.decrypt(hook.secretEnc)).toBe(rolled.json.secret);
    expect(await newOnly.decrypt(hook.previousSecretEnc!)).toBe(created.json.secret);
    const [other] = await env.services.db.select().from(webhooks).where(eq(webhooks.id, second.json.webhook.id));
    expect(other.secretEnc).toBe(ownerWrites);
    const [prov] = await env.services.db.select().from(sendingProviders).where(eq(sendingProviders.orgId, t.org.id));
    expect(await newOnly.decrypt(prov.secretEnc!)).toBe(providerSecret);

    const again = await reencryptStoredSecrets(env.services.db, rotating);
    expect(again.every((r) => r.reencrypted === 0 && r.alreadyCurrent === r.rows)).toBe(true);
  });
});

describe('reencryptStoredSecrets and a sending tool API key', () => {
  // Its own database: the rotation walks every row, and the case above leaves rows on its own new key.
  let env: TestEnv;
  beforeAll(async () => {
    env = await startTestEnv();
  });
  afterAll(() => env.close());

  it('moves an Instantly API key to the new key; the provider still reads it and the admin hint is unchanged', async () => {
    const t = await newTenant(env);
    const apiKey = randomBytes(36).toString('base64');
    const put = await t.admin('PUT', `/admin/v1/orgs/${t.org.id}/sending-provider`, { kind: 'instantly', api_key: apiKey });
    expect(put.status).toBe(200);
    const [before] = await env.services.db.select().from(sendingProviders).where(eq(sendingProviders.orgId, t.org.id));

    const report = await reencryptStoredSecrets(env.services.db, createSecretBox(newKey, TEST_ENCRYPTION_KEY));
    expect(report.find((r) => r.store === 'sending provider secrets')).toMatchObject({ rows: 1, reencrypted: 1, changedMeanwhile: 0 });

    const [after] = await env.services.db.select().from(sendingProviders).where(eq(sendingProviders.orgId, t.org.id));
    expect(after.kind).toBe('instantly');
    expect(after.secretEnc).not.toBe(before.secretEnc);
    expect(after.secretEnc).not.toContain(apiKey);
    const newOnly = createSecretBox(newKey);
    expect(await newOnly.decrypt(after.secretEnc!)).toBe(apiKey);
    await expect(createSecretBox(TEST_ENCRYPTION_KEY).decrypt(after.secretEnc!)).rejects.toThrow(/authentication failed/);
    // What the admin side shows is computed from the key, so it reads the same after the move.
    expect(await providerView(after, { secrets: newOnly })).toEqual({ kind: 'instantly', api_key_hint: `…${apiKey.slice(-4)}` });
    expect(await reencryptStoredSecrets(env.services.db, createSecretBox(newKey, TEST_ENCRYPTION_KEY))).toContainEqual(
      expect.objectContaining({ store: 'sending provider secrets', rows: 1, reencrypted: 0, alreadyCurrent: 1 }),
    );
  });
});

describe('reencryptStoredSecrets and a table destination token', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await startTestEnv();
  });
  afterAll(() => env.close());

  it('moves the token to the new key; the push job still reads it; a destination without a token is not a row to move', async () => {
    const t = await newTenant(env, { features: { studio: true } });
    const put = await t.admin('PUT', `/admin/v1/clients/${t.client.id}/table-destination`, { url: 'https://table.example.com/hook', token: 'tbl_rotate_me' });
    expect(put.status).toBe(200);
    const other = await t.addClient('No token');
    expect((await t.admin('PUT', `/admin/v1/clients/${other.id}/table-destination`, { url: 'https://table.example.com/other' })).status).toBe(200);
    const [before] = await env.services.db.select().from(tableDestinations).where(eq(tableDestinations.clientId, t.client.id));

    const report = await reencryptStoredSecrets(env.services.db, createSecretBox(newKey, TEST_ENCRYPTION_KEY));
    expect(report.find((r) => r.store === 'table destination tokens')).toMatchObject({ rows: 1, reencrypted: 1, changedMeanwhile: 0 });

    const [after] = await env.services.db.select().from(tableDestinations).where(eq(tableDestinations.clientId, t.client.id));
    expect(after.tokenEnc).not.toBe(before.tokenEnc);
    const { loadTableDestination } = await import('../../lib/bridge/destination');
    expect(await loadTableDestination({ secrets: createSecretBox(newKey) }, env.services.db, t.client.id)).toEqual({ url: 'https://table.example.com/hook', token: 'tbl_rotate_me' });
    await expect(createSecretBox(TEST_ENCRYPTION_KEY).decrypt(after.tokenEnc!)).rejects.toThrow(/authentication failed/);
    expect(await reencryptStoredSecrets(env.services.db, createSecretBox(newKey, TEST_ENCRYPTION_KEY))).toContainEqual(
      expect.objectContaining({ store: 'table destination tokens', rows: 1, reencrypted: 0, alreadyCurrent: 1 }),
    );
  });
});

describe('reencryptStoredSecrets and a mailbox credential', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await startTestEnv();
  });
  afterAll(() => env.close());

  it('moves the credential to the new key and leaves a mailbox without one alone', async () => {
    const t = await newTenant(env, { features: { studio: true } });
    const db = env.services.db;
    const [domain] = await db.insert(domains).values({ orgId: t.org.id, clientId: t.client.id, name: 'getrotate.com', status: 'dns_ready', priceCents: 999, orderRef: 'step-rotate' }).returning();
    const base = { orgId: t.org.id, clientId: t.client.id, domainId: domain.id, workspaceId: 'ws-1', createdByStep: 'step-rotate', statusSince: '2026-11-01' };
    const [withCred] = await db
      .insert(mailboxes)
      .values({ ...base, address: 'anna@getrotate.com', displayName: 'Anna', providerId: 'p-1', credentialEnc: await env.services.secrets.encrypt('app-password-1') })
      .returning();
    await db.insert(mailboxes).values({ ...base, address: 'ben@getrotate.com', displayName: 'Ben', providerId: 'p-2', credentialEnc: null });

    const report = await reencryptStoredSecrets(db, createSecretBox(newKey, TEST_ENCRYPTION_KEY));
    expect(report.find((r) => r.store === 'mailbox credentials')).toMatchObject({ rows: 1, reencrypted: 1, changedMeanwhile: 0 });
    const [after] = await db.select().from(mailboxes).where(eq(mailboxes.id, withCred.id));
    expect(after.credentialEnc).not.toBe(withCred.credentialEnc);
    expect(await createSecretBox(newKey).decrypt(after.credentialEnc!)).toBe('app-password-1');
    await expect(createSecretBox(TEST_ENCRYPTION_KEY).decrypt(after.credentialEnc!)).rejects.toThrow(/authentication failed/);
  });
});

describe('a malformed key', () => {
  it('is refused naming its variable, at ready() and at every use, without an unhandled rejection', async () => {
    const box = createSecretBox(newKey, 'not-a-key');
    await expect(box.ready()).rejects.toThrow(/^ENCRYPTION_KEY_PREVIOUS must be exactly 32 bytes/);
    const stranger = await createSecretBox(oldKey).encrypt('x');
    await expect(box.decrypt(stranger)).rejects.toThrow(/^ENCRYPTION_KEY_PREVIOUS must be exactly 32 bytes/);
    expect(await box.decrypt(await box.encrypt('still works'))).toBe('still works');
    await expect(createSecretBox('short').ready()).rejects.toThrow(/^ENCRYPTION_KEY must be exactly 32 bytes/);
  });

  it('stops the Node services at start', async () => {
    await expect(startTestEnv({ ENCRYPTION_KEY_PREVIOUS: 'x'.repeat(10) })).rejects.toThrow(/ENCRYPTION_KEY_PREVIOUS/);
  });
});

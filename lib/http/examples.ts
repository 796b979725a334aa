// Examples for the API reference (/docs): what a few central requests and answers look like with real-looking
// values, added to the generated document by component name so the groups' schema files stay as they are.
// test/api/docs_page.test.ts parses every example with its zod schema: a renamed or changed field fails there.

const LEAD_ID = '3f2b8c1e-6a4d-4e9b-9c1f-2d7a5b8e0c41';
const CAMPAIGN_ID = '8d1e4f7a-2b3c-4d5e-8f90-a1b2c3d4e5f6';

export const COMPONENT_EXAMPLES: Record<string, unknown> = {
  Lead: {
    email: 'pat@prospect.com',
    name: 'Pat Prospect',
    campaign_id: CAMPAIGN_ID,
    campaign_name: 'Q3 SaaS founders',
    client_name: 'Acme Outbound',
    classification: 'hot',
    reply_count: 2,
    last_reply_at: '2026-11-20T14:03:00.000Z',
  },
  UpdateLead: { classification: 'warm', notes: 'Asked to follow up after their board meeting on the 28th.' },
  Campaign: {
    id: CAMPAIGN_ID,
    name: 'Q3 SaaS founders',
    status: 'active',
    sent: 1200,
    replied: 84,
    reply_rate: 0.07,
    open_rate: 0.4125,
    client: { id: '5c9e2a71-0d3f-4b6a-9e8d-7f1a2b3c4d5e', name: 'Acme Outbound' },
    stats_last_synced_at: '2026-11-20T06:00:00.000Z',
  },
  SendReply: { body: 'Thanks Pat! Does Tuesday 10:00 CET work for a 20-minute call?', original_suggestion: 'Thanks Pat! Would Tuesday work for a short call?', edited: true },
  ReplySent: { status: 'sent', reply_id: LEAD_ID, sent: true, to_email: 'pat@prospect.com', learned: true, sent_at: '2026-11-20T14:10:12.000Z' },
  SuggestRequest: {
    reply_received: 'Sounds interesting. What does it cost for a team of 10?',
    lead_name: 'Pat Prospect',
    company: 'Prospect GmbH',
    campaign_context: 'Reply handling for agencies; 49 EUR per seat per month, annual plans 20 % off.',
    medium: 'email',
    tone: 'friendly',
  },
  CreateWebhook: { name: 'CRM sync', url: 'https://hooks.example.com/reply-intelligence', events: ['lead.replied', 'reply.sent'] },
};

/** The document with the examples of the components it has (a Worker's document holds its group's only). */
export function withExamples<D extends { components?: object }>(doc: D): D {
  const schemas = (doc.components as { schemas?: Record<string, Record<string, unknown>> } | undefined)?.schemas;
  if (!schemas) return doc;
  for (const [name, example] of Object.entries(COMPONENT_EXAMPLES)) {
    if (schemas[name] && schemas[name].example === undefined) schemas[name] = { ...schemas[name], example };
  }
  return doc;
}

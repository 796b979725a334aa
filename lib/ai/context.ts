// Turns the free-text campaign context and the thread history into facts the
// templates can quote. The offline engine never invents product claims: every
// answer about pricing, integrations or customers is lifted from campaign_context.

import { MONTHS, WEEKDAYS, isoDate, type DayPart } from './dates';
import type { PreviousMessage } from './types';

export interface CampaignFacts {
  sentences: string[];
  offer: string | null;
  pricing: string[];
  integrations: string[];
  proof: string[];
  process: string[];
  tools: string[];
}

const TOOLS: Record<string, string> = {
  hubspot: 'HubSpot', salesforce: 'Salesforce', pipedrive: 'Pipedrive', zoho: 'Zoho',
  'dynamics': 'Microsoft Dynamics', salesloft: 'Salesloft', outreach: 'Outreach', apollo: 'Apollo',
  lemlist: 'lemlist', instantly: 'Instantly', smartlead: 'Smartlead', slack: 'Slack', zapier: 'Zapier',
  gmail: 'Gmail', outlook: 'Outlook', 'google workspace': 'Google Workspace', 'microsoft 365': 'Microsoft 365',
  intercom: 'Intercom', zendesk: 'Zendesk', marketo: 'Marketo', pardot: 'Pardot', attio: 'Attio',
  copper: 'Copper', airtable: 'Airtable', xero: 'Xero', quickbooks: 'QuickBooks', stripe: 'Stripe', shopify: 'Shopify', 'close.com': 'Close', make: 'Make',
};

export function findTools(text: string): string[] {
  const lower = text.toLowerCase();
  const out: string[] = [];
  for (const [key, name] of Object.entries(TOOLS)) {
    // "make" and "outreach" are ordinary words; only count them when capitalised.
    const ordinaryWord = key === 'make' || key === 'outreach';
    const re = new RegExp(`\\b${key.replace('.', '\\.')}\\b`, ordinaryWord ? '' : 'i');
    if (re.test(ordinaryWord ? text : lower) && (!ordinaryWord || new RegExp(`\\b${name}\\b`).test(text))) out.push(name);
  }
  return out;
}

export function splitSentences(text: string): string[] {
  return text
    .split(/\n+/)
    .flatMap((line) => line.split(/(?<=[.!?])\s+(?=["'(]?[A-Z0-9$€£])/))
    .map((s) => s.replace(/^[-*•]\s*/, '').trim())
    .filter((s) => s.length > 0);
}

function andList(v: string): string {
  return /\band\b/.test(v) || !v.includes(', ') ? v : v.replace(/, ([^,]+)$/, ' and $1');
}

function ensurePeriod(s: string): string {
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

// "Pricing: $2k/month" style notes are common in campaign briefs; rewrite them into
// sentences that can be pasted into a reply.
function fromLabel(s: string): string {
  const m = /^([A-Za-z ]{3,20})\s*[:\u2013\u2014-]\s+(.+)$/.exec(s);
  if (!m) return ensurePeriod(s);
  const label = m[1].trim().toLowerCase();
  const value = m[2].trim().replace(/[.]$/, '');
  if (/^(pricing|price|prices|cost|costs|fees?)$/.test(label)) return `Pricing is ${value}.`;
  if (/^integrations?$/.test(label)) return `We integrate with ${andList(value)}.`;
  if (/^(clients|customers|case stud(y|ies)|proof|social proof|results)$/.test(label)) {
    return /^(clients|customers)$/.test(label) ? `We work with ${andList(value)}.` : ensurePeriod(value);
  }
  // "Offer: AI-assisted bookkeeping" is a noun phrase; make it a sentence we can send.
  if (/^(offer|product|service|what we do)$/.test(label)) return `We offer ${/^[A-Z][a-z]/.test(value) ? value[0].toLowerCase() + value.slice(1) : value}.`;
  if (/^(pitch|value prop(osition)?)$/.test(label)) return ensurePeriod(value[0].toUpperCase() + value.slice(1));
  return ensurePeriod(s);
}

const PRICING_RE = /(pric|cost|\$|€|£|\bper (month|year|seat|user|meeting)\b|\/(mo|month|yr|year)\b|\bfee\b|\bplans?\b|\bretainer\b)/i;
const INTEGRATION_RE = /(integrat|\bsyncs?\b|\bapi\b|\bconnects? (to|with)\b|\bplugs? into\b|\bnative\b|\bworks with\b)/i;
const PROOF_RE = /(\bclients?\b|\bcustomers?\b|\bteams like\b|\bcompanies like\b|\btrusted by\b|\bcase stud|\bworked with\b|\bresults?\b|\busers?\b|\bused by\b)/i;
const PROCESS_RE = /(\bwe (build|write|set up|run|handle|send|research|manage|find|source|launch|connect|do|take care|start|audit|review)\b|\bdone[- ]for[- ]you\b|\bprocess\b|\bsteps?\b|\bonboarding\b)/i;

export function clauseTrim(s: string, max: number): string {
  const body = s.replace(/[.!?]+$/, '');
  if (body.length <= max) return body;
  const cut = body.slice(0, max);
  const at = Math.max(cut.lastIndexOf(', '), cut.lastIndexOf(' \u2014 '), cut.lastIndexOf(' by '), cut.lastIndexOf(' with '), cut.lastIndexOf(' through '), cut.lastIndexOf(' so '));
  const out = at > max * 0.4 ? cut.slice(0, at) : cut.slice(0, cut.lastIndexOf(' ') > 0 ? cut.lastIndexOf(' ') : max);
  return out.replace(/[\s,;:\u2014-]+$/, '');
}

/** The first clause of a sentence, for one-line mentions ("We run outbound for SaaS teams."). */
export function headline(s: string): string {
  const body = s.replace(/[.!?]+$/, '');
  const at = body.search(/[:;]| \u2014 | - |, so |, which /);
  return `${at > 20 ? body.slice(0, at) : body}.`;
}

export function parseCampaign(context: string | null | undefined): CampaignFacts {
  const sentences = splitSentences(context ?? '').map(fromLabel);
  const pricing = sentences.filter((s) => PRICING_RE.test(s));
  const integrations = sentences.filter((s) => INTEGRATION_RE.test(s) || findTools(s).length > 0);
  const proof = sentences.filter((s) => PROOF_RE.test(s) && !pricing.includes(s) && !integrations.includes(s));
  const offer = sentences.find((s) => !pricing.includes(s) && !integrations.includes(s) && !proof.includes(s)) ?? sentences[0] ?? null;
  const process = sentences.filter((s) => s !== offer && PROCESS_RE.test(s) && !pricing.includes(s));
  return { sentences, offer, pricing, integrations, proof, process, tools: findTools(sentences.join(' ')) };
}

export interface Offered { phrase: string; kind: 'meeting' | 'resource' }

export interface Conversation {
  lastOutbound: string | null;
  offered: Offered | null;
  /** ISO dates already proposed by us, so a new draft doesn't re-offer them. */
  proposedDates: Set<string>;
  /** Facts the lead already gave; the draft must not ask for them again. */
  known: { teamSize: boolean; tools: string[]; dayPart: DayPart };
}

const OFFER_RE = /\b(?:a|an|the|our|my)\s+((?:(?:free|quick|short|brief|complimentary|no-obligation|personali[sz]ed|custom|tailored|\d+[- ]?min(?:ute)?s?)\s+){0,2}(?:[a-z][a-z-]+\s+){0,2}?(?:audit|call|demo|review|teardown|walkthrough|walk-through|trial|pilot|assessment|analysis|consultation|chat|case study|one-pager|deck|report|breakdown|sample|proposal|benchmark|playbook|checklist))\b/gi;

export function findOffer(text: string): Offered | null {
  const matches = [...text.matchAll(OFFER_RE)];
  if (matches.length === 0) return null;
  // The call-to-action usually closes the message, so the last match is the actual offer.
  const phrase = matches[matches.length - 1][1].toLowerCase();
  const kind = /(call|demo|chat|walkthrough|walk-through|consultation)$/.test(phrase) ? 'meeting' : 'resource';
  return { phrase, kind };
}

const TEAM_SIZE_RE = /\b(team of \d+|\d+\s*(-person|person|people|reps|sdrs|bdrs|aes|seats|users|employees|salespeople|sellers|mailboxes|inboxes))\b/i;

export function dayPartOf(text: string): DayPart {
  if (/\b(mornings?|before (noon|lunch))\b|\d\s*am\b/i.test(text)) return 'morning';
  if (/\b(afternoons?|after lunch)\b|\d\s*pm\b/i.test(text)) return 'afternoon';
  return null;
}

export function readConversation(prev: PreviousMessage[] | null | undefined, reply: string, now: Date): Conversation {
  const msgs = (prev ?? []).slice(-10);
  const outbound = msgs.filter((m) => m.role === 'outbound').map((m) => m.content);
  const replies = [...msgs.filter((m) => m.role === 'reply').map((m) => m.content), reply];
  const lastOutbound = outbound.length ? outbound[outbound.length - 1] : null;
  const proposedDates = new Set<string>();
  const dateRe = new RegExp(`\\b(?:${WEEKDAYS.join('|')}),?\\s+(\\d{1,2})(?:st|nd|rd|th)?\\s+(${MONTHS.join('|')})`, 'gi');
  for (const text of outbound) {
    for (const m of text.matchAll(dateRe)) {
      const month = MONTHS.findIndex((x) => x.toLowerCase() === m[2].toLowerCase());
      let year = now.getUTCFullYear();
      if (month < now.getUTCMonth() - 6) year += 1;
      proposedDates.add(isoDate(new Date(Date.UTC(year, month, +m[1]))));
    }
  }
  const replyText = replies.join('\n');
  return {
    lastOutbound,
    offered: lastOutbound ? findOffer(lastOutbound) : null,
    proposedDates,
    known: { teamSize: TEAM_SIZE_RE.test(replyText), tools: findTools(replyText), dayPart: dayPartOf(reply) ?? dayPartOf(replyText) },
  };
}

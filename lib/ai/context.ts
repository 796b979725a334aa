// Turns the free-text campaign context and the thread history into facts the
// templates can quote. The offline engine never invents product claims: every
// answer about pricing, integrations or customers is lifted from campaign_context.

import { isoDate, type DayPart, type Slot } from './dates';
import { detectLanguage, type Lang } from './lang';
import { NO_CONTRACT, parsePrice, type Price } from './price';
import type { PreviousMessage } from './types';
import { dayPartIn, findDates, fold, offeredSlots } from './when';

export interface CampaignFacts {
  /** The brief's language: its sentences are only quoted in a draft of that language. */
  lang: Lang;
  sentences: string[];
  offer: string | null;
  pricing: string[];
  integrations: string[];
  proof: string[];
  process: string[];
  tools: string[];
  /** The same facts as data, for a draft in another language than the brief. */
  price: Price | null;
  noContract: boolean;
  clients: string[];
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

// The bucket patterns run on folded text (lower case, no accents) and cover the five languages' labels and words.
const PRICING_RE = /(pric|cost|\$|€|£|\bper (month|year|seat|user|meeting)\b|\/(mo|month|yr|year|monat|mois|mes|maand)\b|\bfee\b|\bplans?\b|\bretainer\b|\bpreis|\bkosten\b|\btarif|\bprix\b|\bprecio|\bprijs|\bpro monat\b|\bpar mois\b|\bal mes\b|\bper maand\b|\beur\b)/;
const INTEGRATION_RE = /(integr|\bsyncs?\b|\bapi\b|\bconnects? (to|with)\b|\bplugs? into\b|\bnative\b|\bworks with\b|schnittstelle|\barbeiten mit\b|koppeling)/;
const PROOF_RE = /(\bclients?\b|\bcustomers?\b|\b(teams|companies|brands) like\b|\btrusted by\b|\bcase stud|\bworked with\b|\bresults?\b|\busers?\b|\bused by\b|\bkunden\b|\breferenzen\b|\breferences\b|\bclientes\b|\bklanten\b)/;
const PROCESS_RE = /(\bwe (build|write|set up|run|handle|send|research|manage|find|source|launch|connect|do|take care|start|audit|review)\b|\bdone[- ]for[- ]you\b|\bprocess\b|\bsteps?\b|\bonboarding\b|\bwir (ubernehmen|erstellen|schreiben|recherchieren|bauen|kummern)|\bnous (generons|redigeons|gerons|construisons|nous occupons)|\b(generamos|redactamos|buscamos|gestionamos|nos encargamos)\b|\b(wij|we) (verzorgen|schrijven|zoeken|bouwen)\b)/;

/** Customer names listed in proof sentences: "Clients include Ramp, Vanta and Lattice", "Kunden: Cloudwerk, Nexora". */
export function clientNames(proof: string[]): string[] {
  const out: string[] = [];
  for (const s of proof) {
    const m = /(?:\b(?:include|includes|including|like|such as|are|sind|zahlen|incluyen|como|zoals)\b|\b(?:with|mit|avec|con|met)\b|:)\s+(.+)$/i.exec(s);
    if (!m) continue;
    for (const item of m[1].replace(/[.!]$/, '').split(/,\s*|\s+(?:and|und|et|y|en|&)\s+/)) {
      const name = item.trim();
      if (/^\p{Lu}[\p{L}\d&.'-]*(?:\s\p{Lu}[\p{L}\d&.'-]*){0,2}$/u.test(name) && !out.includes(name)) out.push(name);
    }
  }
  return out;
}

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
  const lang = detectLanguage(context) ?? 'en';
  // English labels ("Pricing: …") become English sentences; other languages' labelled lines are kept as written.
  const sentences = splitSentences(context ?? '').map((s) => (lang === 'en' ? fromLabel(s) : ensurePeriod(s)));
  const is = (re: RegExp) => (s: string) => re.test(fold(s));
  const pricing = sentences.filter(is(PRICING_RE));
  const integrations = sentences.filter((s) => is(INTEGRATION_RE)(s) || findTools(s).length > 0);
  const proof = sentences.filter((s) => is(PROOF_RE)(s) && !pricing.includes(s) && !integrations.includes(s));
  const offer = sentences.find((s) => !pricing.includes(s) && !integrations.includes(s) && !proof.includes(s)) ?? sentences[0] ?? null;
  const process = sentences.filter((s) => s !== offer && is(PROCESS_RE)(s) && !pricing.includes(s));
  const price = pricing.map(parsePrice).find((p) => p !== null) ?? null;
  return {
    lang, sentences, offer, pricing, integrations, proof, process, tools: findTools(sentences.join(' ')),
    price, noContract: pricing.some((p) => NO_CONTRACT.test(fold(p))), clients: clientNames(proof),
  };
}

export interface Offered { phrase: string; kind: 'meeting' | 'resource' }

export interface Conversation {
  lastOutbound: string | null;
  offered: Offered | null;
  /** ISO dates already proposed by us, so a new draft doesn't re-offer them. */
  proposedDates: Set<string>;
  /** The slots our last message offered, so "Tuesday works" confirms the Tuesday one. */
  offeredSlots: Slot[];
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
  return dayPartIn(fold(text));
}

export function readConversation(prev: PreviousMessage[] | null | undefined, reply: string, now: Date): Conversation {
  const msgs = (prev ?? []).slice(-10);
  const outbound = msgs.filter((m) => m.role === 'outbound').map((m) => m.content);
  const replies = [...msgs.filter((m) => m.role === 'reply').map((m) => m.content), reply];
  const lastOutbound = outbound.length ? outbound[outbound.length - 1] : null;
  const proposedDates = new Set<string>();
  for (const text of outbound) for (const d of findDates(fold(text), now)) proposedDates.add(isoDate(d.date));
  const replyText = replies.join('\n');
  return {
    lastOutbound,
    offered: lastOutbound ? findOffer(lastOutbound) : null,
    proposedDates,
    offeredSlots: lastOutbound ? offeredSlots(lastOutbound, now) : [],
    known: { teamSize: TEAM_SIZE_RE.test(replyText), tools: findTools(replyText), dayPart: dayPartOf(reply) ?? dayPartOf(replyText) },
  };
}

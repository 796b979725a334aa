// What a draft says, per language. English keeps its richer templates (templates.ts, answers.ts, cta.ts); German,
// French, Spanish and Dutch drafts are built from these phrasebooks by i18n/build.ts, one builder for all four.
// Each phrasebook is a function of the register (Sie/du, vous/tu, usted/tú, u/je), so both forms live side by side.

import type { Slot } from '../dates';
import type { Tone } from '../draft';
import type { Lang, Register } from '../lang';
import type { Price } from '../price';
import type { Medium } from '../types';

/** Campaign facts stated in a draft's language when the brief was written in another one. */
export interface FactPhrases {
  price(p: Price, noContract: boolean): string;
  integrates(tools: string[]): string;
  clients(names: string[]): string;
}

export interface Phrases extends FactPhrases {
  lang: Lang;
  register: Register;
  greeting(first: string | null, tone: Tone, medium: Medium): string;
  signOff(tone: Tone): string;
  /** A slot as it reads inside a sentence ("el martes, 24 de noviembre a las 14:00"). */
  slot(s: Slot): string;
  /** Several times on one day ("Dienstag, 24. November um 10:00 oder 14:00"). */
  sameDay(day: Date, times: string[]): string;
  yourTime: string;
  thanks: string;
  meetingOpen: string;
  meetingOpenBack: string;
  rescheduleOpen: string;
  focus(company: string | null): string;
  askSlots(list: string): string;
  invite: string;
  fallback: string;
  confirm(when: string): string;
  changes: string;
  priceUnknown(company: string | null): string;
  askTeamSize: string;
  integrationYes(tools: string[]): string;
  integrationCheck(tools: string[]): string;
  integrationUnknown: string;
  askTools: string;
  proofUnknown(company: string | null): string;
  caseStudy: string;
  showOnScreen: string;
  check: string;
  softCta(company: string | null, list: string): string;
  noCallCta: string;
  shortVersion: string;
  overviewToday: string;
  infoCta(company: string | null): string;
  laterAck: string;
  laterPlan(date: string, monthStart: boolean, month: string): string;
  laterChange: string;
  internalAck: string;
  internalPlan(date: string): string;
  referralThanks: string;
  referralAsk(name: string | null): string;
  referralContact(name: string, email: string): string;
  whoSource(medium: Medium, phone: boolean): string;
  whoReason(company: string | null): string;
  whoOptOut(final: boolean): string;
  ooo(day: string | null, month: string | null): string;
  noThanks: string;
  covered: string;
  noFollowUp: string;
  /** A well-wish that closes the message; written without final punctuation (the sign-off step adds it). */
  wish: string;
  unsubscribe: string;
  apology: string;
  unclearAsk: string;
  resourceSoon: string;
  inShort(headline: string): string;
}

/** Capitalises a date that starts a sentence ("mardi 24 novembre …" → "Mardi 24 novembre …"). */
export function cap(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

// The offline engine's answer to a formula question ("Does {company} sell to businesses?"), from the lead's facts
// only, by keyword rules: no network, no randomness, so equal questions and facts always give equal answers.
// It is a stand-in that makes recipes runnable and testable without a model; a hosted engine answers for real.
import type { Answer, AskFacts } from './types';

const YES_NO = /^(is|are|does|do|did|has|have|can|could|will|would|was|were|should)\b/i;

const STOP = new Set(
  'the a an and or of to in on for with at by from about into over this that these those they them their there what which who whom whose when where why how does do did is are was were be been has have had can could will would should sell sells any some much many more most than then also very just company companies lead person'.split(
    ' ',
  ),
);

/** Question words → the facts that answer them, most specific first. */
const FIELD_WORDS: [RegExp, string[]][] = [
  [/\bindustr|\bsector|\bvertical/i, ['industry']],
  [/\bemployees?\b|\bheadcount|\bhow many people|\bcompany size|\bsize\b/i, ['employees', 'company_size_band']],
  [/\btime ?zone/i, ['timezone', 'country_timezone']],
  [/\bcountry|\bwhere\b|\blocated|\bbased\b/i, ['country', 'city', 'state']],
  [/\bcity\b/i, ['city']],
  [/\btitle|\brole\b|\bposition|\bjob\b/i, ['title']],
  [/\bwebsite|\burl\b|\bdomain/i, ['website', 'domain']],
  [/\bemail/i, ['email']],
  [/\blinkedin/i, ['linkedin_url']],
  [/\bfounded|\bage\b|\bhow old/i, ['founded_year', 'domain_age_years']],
  [/\bdo\b|\bsells?\b|\boffer|\bproduct|\bservice|\bdescri/i, ['description', 'company_description', 'hook', 'note', 'industry']],
];

/** Words that say a company sells to businesses, in a name, a domain or a description. */
const B2B_WORDS = ['b2b', 'software', 'saas', 'consult', 'agency', 'solutions', 'services', 'systems', 'technolog', 'partners', 'logistics', 'analytics', 'platform', 'cloud', 'marketing', 'recruit', 'data'];

const textOf = (facts: AskFacts) =>
  Object.entries(facts)
    .map(([, v]) => String(v).toLowerCase())
    .join(' \n ');

/** The question's own words: the lead's values it was filled with ("Does Acme Software sell software?" → sell, software) removed once. */
function contentWords(question: string, facts: AskFacts): string[] {
  let rest = question.toLowerCase();
  for (const v of Object.values(facts)) {
    const t = String(v).toLowerCase().trim();
    const at = t.length >= 3 ? rest.indexOf(t) : -1;
    if (at >= 0) rest = rest.slice(0, at) + ' ' + rest.slice(at + t.length);
  }
  return [...new Set(rest.split(/[^a-z0-9]+/))].filter((w) => w.length >= 3 && !STOP.has(w));
}

export function askOffline(question: string, facts: AskFacts): Answer {
  const q = question.trim();
  const haystack = textOf(facts);
  if (YES_NO.test(q)) {
    const words = contentWords(q, facts);
    // A word of the question found in the facts (by its stem: "sells" finds "selling") answers yes.
    const hit = words.find((w) => haystack.includes(w.length > 5 ? w.slice(0, 5) : w));
    if (hit) return { answer: 'yes', confidence: 0.7 };
    if (/\bb2b\b|\bbusiness(es)?\b/i.test(q) && B2B_WORDS.some((w) => haystack.includes(w))) return { answer: 'yes', confidence: 0.6 };
    return { answer: 'no', confidence: 0.3 };
  }
  for (const [re, keys] of FIELD_WORDS) {
    if (!re.test(q)) continue;
    const key = keys.find((k) => facts[k] !== undefined && String(facts[k]).trim() !== '');
    if (key) return { answer: String(facts[key]).trim(), confidence: 0.8 };
  }
  return { answer: '', confidence: 0 };
}

// Countries an agency's leads come from: name or ISO code → code, main timezone and language, for the
// country_timezone / country_language / greeting functions. A country with several zones gets its business capital's.

type Country = { code: string; names: string[]; tz: string; lang: string };

const COUNTRIES: Country[] = [
  { code: 'US', names: ['united states', 'usa', 'united states of america', 'us', 'america'], tz: 'America/New_York', lang: 'en' },
  { code: 'GB', names: ['united kingdom', 'uk', 'great britain', 'england', 'scotland', 'wales', 'gb'], tz: 'Europe/London', lang: 'en' },
  { code: 'IE', names: ['ireland'], tz: 'Europe/Dublin', lang: 'en' },
  { code: 'CA', names: ['canada'], tz: 'America/Toronto', lang: 'en' },
  { code: 'AU', names: ['australia'], tz: 'Australia/Sydney', lang: 'en' },
  { code: 'NZ', names: ['new zealand'], tz: 'Pacific/Auckland', lang: 'en' },
  { code: 'DE', names: ['germany', 'deutschland'], tz: 'Europe/Berlin', lang: 'de' },
  { code: 'AT', names: ['austria', 'österreich', 'osterreich'], tz: 'Europe/Vienna', lang: 'de' },
  { code: 'CH', names: ['switzerland', 'schweiz', 'suisse'], tz: 'Europe/Zurich', lang: 'de' },
  { code: 'NL', names: ['netherlands', 'the netherlands', 'nederland', 'holland'], tz: 'Europe/Amsterdam', lang: 'nl' },
  { code: 'BE', names: ['belgium', 'belgië', 'belgie', 'belgique'], tz: 'Europe/Brussels', lang: 'nl' },
  { code: 'FR', names: ['france'], tz: 'Europe/Paris', lang: 'fr' },
  { code: 'ES', names: ['spain', 'españa', 'espana'], tz: 'Europe/Madrid', lang: 'es' },
  { code: 'MX', names: ['mexico', 'méxico'], tz: 'America/Mexico_City', lang: 'es' },
  { code: 'AR', names: ['argentina'], tz: 'America/Argentina/Buenos_Aires', lang: 'es' },
  { code: 'IT', names: ['italy', 'italia'], tz: 'Europe/Rome', lang: 'it' },
  { code: 'PT', names: ['portugal'], tz: 'Europe/Lisbon', lang: 'pt' },
  { code: 'BR', names: ['brazil', 'brasil'], tz: 'America/Sao_Paulo', lang: 'pt' },
  { code: 'SE', names: ['sweden', 'sverige'], tz: 'Europe/Stockholm', lang: 'sv' },
  { code: 'NO', names: ['norway', 'norge'], tz: 'Europe/Oslo', lang: 'no' },
  { code: 'DK', names: ['denmark', 'danmark'], tz: 'Europe/Copenhagen', lang: 'da' },
  { code: 'FI', names: ['finland', 'suomi'], tz: 'Europe/Helsinki', lang: 'fi' },
  { code: 'PL', names: ['poland', 'polska'], tz: 'Europe/Warsaw', lang: 'pl' },
  { code: 'CZ', names: ['czech republic', 'czechia'], tz: 'Europe/Prague', lang: 'cs' },
  { code: 'IN', names: ['india'], tz: 'Asia/Kolkata', lang: 'en' },
  { code: 'SG', names: ['singapore'], tz: 'Asia/Singapore', lang: 'en' },
  { code: 'AE', names: ['united arab emirates', 'uae'], tz: 'Asia/Dubai', lang: 'en' },
  { code: 'ZA', names: ['south africa'], tz: 'Africa/Johannesburg', lang: 'en' },
  { code: 'JP', names: ['japan'], tz: 'Asia/Tokyo', lang: 'ja' },
  { code: 'IL', names: ['israel'], tz: 'Asia/Jerusalem', lang: 'en' },
];

const BY_KEY = new Map<string, Country>();
for (const c of COUNTRIES) {
  BY_KEY.set(c.code.toLowerCase(), c);
  for (const n of c.names) BY_KEY.set(n, c);
}

export function countryOf(v: string): Country | null {
  return BY_KEY.get(v.trim().toLowerCase().replace(/\./g, '')) ?? null;
}

const HELLO: Record<string, string> = { en: 'Hi', de: 'Hallo', nl: 'Hoi', fr: 'Bonjour', es: 'Hola', it: 'Ciao', pt: 'Olá', sv: 'Hej', no: 'Hei', da: 'Hej', fi: 'Hei', pl: 'Dzień dobry', cs: 'Dobrý den', ja: 'こんにちは' };

/** "Hallo Anna," for a German lead; English when the country is unknown. */
export function greetingFor(firstName: string, country: string | null): string {
  const lang = (country && countryOf(country)?.lang) || 'en';
  const name = firstName.trim();
  return name ? `${HELLO[lang] ?? 'Hi'} ${name},` : `${HELLO[lang] ?? 'Hi'},`;
}

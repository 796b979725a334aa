// Removes earlier thread text (quotes, forwarded blocks, client footers) so the
// classifier only sees what the prospect actually wrote in this reply.
// Everything here is line-based and pure string work so it runs on Workers; every wildcard repetition is bounded
// (.{0,250}) and each line is looked at a bounded number of times, so the cost is linear in the body: a 1 MB body
// (the most an inbound webhook carries) of hostile lines takes about 0.1–0.3 s (test/mail_text runs such bodies).
// Why not the email-reply-parser package: docs/html_mail.md (it fails 4 of these cases, does not load on
// Workers, and one of its patterns is cubic without the native re2 addon).

// Attribution lines that introduce a quoted message ("On … wrote:" and friends), by the word they start with.
const LEAD_ATTRIBUTION: RegExp[] = [
  /^On\b.{0,250}\bwrote\s*:\s*$/i,
  // Gmail/Thunderbird "Am … schrieb Sam <…>:"; Yahoo "Am … hat Sam <…> Folgendes geschrieben:"
  /^Am\b.{0,250}\b(schrieb\b.{0,250}|Folgendes\s+geschrieben\s*):\s*$/i,
  /^Le\b.{0,250}\ba\s+[ée]crit\s*:\s*$/i,
  // Gmail/Yahoo "Op … schreef Sam <…>:"; Apple Mail "Op … heeft Sam <…> het volgende geschreven:"
  /^Op\b.{0,250}\b(schreef\b.{0,250}|het\s+volgende\s+geschreven\s*):\s*$/i,
  /^El\b.{0,250}\bescribi[óo]\s*:\s*$/i,
];
const ATTRIBUTION: RegExp[] = [
  ...LEAD_ATTRIBUTION,
  // Clients that omit the leading "On": "Sam Carter <sam@x.io> wrote:" / "2025-03-04 9:12 GMT Sam <…>:"
  /^.{0,200}[@\d].{0,200}\b(wrote|schrieb|a\s+[ée]crit|schreef|escribi[óo])\s*:\s*$/i,
];

const SEPARATOR: RegExp[] = [
  /^-{2,}\s*(Original Message|Ursprüngliche Nachricht|Message d'origine|Oorspronkelijk bericht|Mensaje original)\s*-{2,}\s*$/i,
  /^-{2,}\s*(Forwarded message|Weitergeleitete Nachricht|Message transféré|Doorgestuurd bericht|Mensaje reenviado)\s*-{2,}\s*$/i,
  /^(Begin forwarded message|Anfang der weitergeleiteten Nachricht|Début du message réexpédié|Begin doorgestuurd bericht|Inicio del mensaje reenviado)\s*:\s*$/i,
];

// Outlook/Exchange header blocks, optionally with markdown-ish bold from HTML→text.
const HDR = (names: string) => new RegExp(`^\\*?(${names})\\s*:\\*?\\s*`, 'i');
const HDR_FROM = HDR('From|Von|De|Van|Da');
const HDR_OTHER = HDR(
  'Sent|Date|To|Cc|Subject|Gesendet|Datum|An|Betreff|Envoyé|À|A|Objet|Verzonden|Aan|Onderwerp|Enviado el|Enviado|Fecha|Para|Asunto|Inviato|Oggetto',
);

// Signature delimiter ("-- " per RFC 3676; many clients trim the space) and mobile footers.
const SIGNATURE_START: RegExp[] = [
  /^--\s*$/,
  /^(Sent from my|Sent from (Outlook|Mail|Yahoo Mail|Gmail|Samsung)|Get Outlook for|Von meinem .{1,40} gesendet|Gesendet (von|mit) .{1,40}|Envoyé (de|depuis) (mon|ma|l'|Outlook|Yahoo)|Verzonden (vanaf|met) (mijn|Outlook|Yahoo)|Verstuurd (vanaf|met) mijn|Enviado (desde|con) (mi|Outlook|Yahoo)|Télécharger Outlook pour|Obtener Outlook para|Outlook für (iOS|Android) (herunterladen|beziehen)|Outlook voor (iOS|Android) downloaden)/i,
];

const BOX_RULE = /^[_\-=*]{5,}\s*$/;

function isOutlookHeader(lines: string[], i: number): boolean {
  if (!HDR_FROM.test(lines[i].trim())) return false;
  // A lone "From: …" line in prose is common; require two more header fields right after it.
  let hits = 0;
  for (let j = i + 1; j < Math.min(lines.length, i + 7); j++) {
    const l = lines[j].trim();
    if (l === '') continue;
    if (HDR_OTHER.test(l)) hits++;
    else break;
  }
  return hits >= 2;
}

function isAttribution(lines: string[], i: number): boolean {
  const line = lines[i].trim();
  if (ATTRIBUTION.some((re) => re.test(line))) return true;
  // Gmail wraps long attributions ("On …, Sam Carter <\nsam@x.io> wrote:"), so retry with the next line(s) joined.
  if (!/^(On|Am|Le|Op|El)\b/i.test(line)) return false;
  let joined = line;
  for (let j = i + 1; j < Math.min(lines.length, i + 3); j++) {
    joined += ' ' + lines[j].trim();
    if (LEAD_ATTRIBUTION.some((re) => re.test(joined))) return true;
  }
  return false;
}

function findCut(lines: string[]): number {
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i].trim();
    if (t === '') continue;
    if (SEPARATOR.some((re) => re.test(t))) return i;
    if (SIGNATURE_START.some((re) => re.test(t))) return i;
    if (isAttribution(lines, i)) return i;
    if (isOutlookHeader(lines, i)) return i;
  }
  return lines.length;
}

/**
 * The prospect's own text and whether anything was cut (a quote, a forwarded block, a header block, a
 * signature or footer). `own` is '' when everything is quoted; see `stripQuoted` for the fallback.
 */
export function splitQuoted(body: string): { own: string; quoted: boolean } {
  if (!body) return { own: '', quoted: false };
  const lines = body.replace(/\r\n?/g, '\n').split('\n');
  const cut = findCut(lines);
  const before = lines.slice(0, cut);
  const kept = before.filter((l) => !/^\s*>/.test(l));
  const quoted = cut < lines.length || kept.length < before.length;
  // Outlook draws a rule above the header block; drop it and any trailing blanks.
  while (kept.length && (kept[kept.length - 1].trim() === '' || BOX_RULE.test(kept[kept.length - 1].trim()))) {
    kept.pop();
  }
  while (kept.length && kept[0].trim() === '') kept.shift();
  const own = kept.map((l) => l.trimEnd()).join('\n').trimEnd();
  return { own, quoted };
}

/** What the prospect wrote; the trimmed original when everything is quoted, so a classifier always gets text. */
export function stripQuoted(body: string): string {
  if (!body) return '';
  const { own } = splitQuoted(body);
  return own === '' ? body.replace(/\r\n?/g, '\n').trim() : own;
}

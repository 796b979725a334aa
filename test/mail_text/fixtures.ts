// HTML replies as the mail clients write them (markup taken from real messages, names and addresses replaced):
// the prospect's answer on top, the agency's pitch quoted below, in each client's own attribution or header.

export type Lang = 'en' | 'de' | 'fr' | 'nl' | 'es';

/** The prospect's answer (two lines, a blank line between) and what `stripped` must be for it. */
export const ANSWER: Record<Lang, [string, string]> = {
  en: ['Yes, Tuesday works.', 'Anna'],
  de: ['Ja, Dienstag passt. Grüße', 'Anna'],
  fr: ['Oui, mardi me convient. À bientôt', 'Anne'],
  nl: ['Ja, dinsdag past. Groetjes', 'Anna'],
  es: ['Sí, el martes me va bien. Saludos', 'Ana'],
};
export const expectedOwn = (lang: Lang) => `${ANSWER[lang][0]}\n\n${ANSWER[lang][1]}`;

const SAM = 'Sam Carter &lt;<a href="mailto:sam@growthpilot.io">sam@growthpilot.io</a>&gt;';
const PITCH_HTML = '<div>Hi Anna,</div><div><br></div><div>Would you be open to a 15-minute call next week? Happy to send a demo.</div><div><br></div><div>Sam</div>';

export function gmail(lang: Lang) {
  const attribution: Record<Lang, string> = {
    en: `On Tue, Mar 4, 2025 at 9:12 AM ${SAM} wrote:`,
    de: `Am Di., 4. März 2025 um 09:12 Uhr schrieb ${SAM}:`,
    fr: `Le mar. 4 mars 2025 à 09:12, ${SAM} a écrit&nbsp;:`,
    nl: `Op di 4 mrt 2025 om 09:12 schreef ${SAM}:`,
    es: `El mar, 4 mar 2025 a las 9:12, Sam Carter (&lt;<a href="mailto:sam@growthpilot.io">sam@growthpilot.io</a>&gt;) escribió:`,
  };
  const [a, b] = ANSWER[lang];
  return (
    `<div dir="ltr"><div>${a}</div><div><br></div><div>${b}</div></div><br>` +
    `<div class="gmail_quote gmail_quote_container"><div dir="ltr" class="gmail_attr">${attribution[lang]}<br></div>` +
    `<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex"><div dir="ltr">${PITCH_HTML}</div></blockquote></div>`
  );
}

const OUTLOOK_LABELS: Record<Lang, [string, string, string, string, string]> = {
  en: ['From:', 'Sent:', 'To:', 'Subject:', 'Tuesday, March 4, 2025 9:12 AM'],
  de: ['Von:', 'Gesendet:', 'An:', 'Betreff:', 'Dienstag, 4. März 2025 09:12'],
  fr: ['De&nbsp;:', 'Envoyé&nbsp;:', 'À&nbsp;:', 'Objet&nbsp;:', 'mardi 4 mars 2025 09:12'],
  nl: ['Van:', 'Verzonden:', 'Aan:', 'Onderwerp:', 'dinsdag 4 maart 2025 09:12'],
  es: ['De:', 'Enviado el:', 'Para:', 'Asunto:', 'martes, 4 de marzo de 2025 9:12'],
};

/** Outlook for Windows: Word HTML, one <p class=MsoNormal> per line, the header in a div with a top border. */
export function outlookDesktop(lang: Lang) {
  const [from, sent, to, subject, date] = OUTLOOK_LABELS[lang];
  const [a, b] = ANSWER[lang];
  return `<html xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:w="urn:schemas-microsoft-com:office:word" xmlns:m="http://schemas.microsoft.com/office/2004/12/omml" xmlns="http://www.w3.org/TR/REC-html40"><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8"><meta name="Generator" content="Microsoft Word 15 (filtered medium)"><style><!--
/* Font Definitions */
@font-face {font-family:"Cambria Math"; panose-1:2 4 5 3 5 4 6 3 2 4;}
p.MsoNormal, li.MsoNormal, div.MsoNormal {margin:0in; font-size:11.0pt; font-family:"Calibri",sans-serif;}
span.EmailStyle18 {mso-style-type:personal-reply;}
--></style><!--[if gte mso 9]><xml>
<o:shapedefaults v:ext="edit" spidmax="1026" />
</xml><![endif]--></head><body lang="EN-US" link="#0563C1" vlink="#954F72" style="word-wrap:break-word"><div class="WordSection1"><p class="MsoNormal">${a}<o:p></o:p></p>
<p class="MsoNormal"><o:p>&nbsp;</o:p></p>
<p class="MsoNormal">${b}<o:p></o:p></p>
<p class="MsoNormal"><o:p>&nbsp;</o:p></p>
<div><div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0in 0in 0in"><p class="MsoNormal"><b>${from}</b> Sam Carter &lt;sam@growthpilot.io&gt; <br><b>${sent}</b> ${date}<br><b>${to}</b> Anna Klein &lt;anna@acme.com&gt;<br><b>${subject}</b> Quick question<o:p></o:p></p></div></div>
<p class="MsoNormal"><o:p>&nbsp;</o:p></p>
<p class="MsoNormal">Hi Anna,<o:p></o:p></p>
<p class="MsoNormal">Would you be open to a 15-minute call next week? Happy to send a demo.<o:p></o:p></p>
<p class="MsoNormal">Sam<o:p></o:p></p>
</div></body></html>`;
}

/** Outlook on the web / new Outlook: #appendonsend, an <hr>, #divRplyFwdMsg, then the quoted mail as siblings. */
export function outlookWeb(lang: Lang, signature = '') {
  const [from, sent, to, subject, date] = OUTLOOK_LABELS[lang];
  const [a, b] = ANSWER[lang];
  return `<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8"><style type="text/css" style="display:none;"> P {margin-top:0;margin-bottom:0;} </style></head><body dir="ltr"><div class="elementToProof" style="font-family: Aptos, Aptos_EmbeddedFont, Aptos_MSFontService, Calibri, Helvetica, sans-serif; font-size: 12pt; color: rgb(0, 0, 0);">${a}</div><div class="elementToProof" style="font-family: Aptos; font-size: 12pt;"><br></div><div class="elementToProof" style="font-family: Aptos; font-size: 12pt;">${b}</div>${signature}<div id="appendonsend"></div><hr style="display:inline-block;width:98%" tabindex="-1"><div id="divRplyFwdMsg" dir="ltr"><font face="Calibri, sans-serif" style="font-size:11pt" color="#000000"><b>${from}</b> Sam Carter &lt;sam@growthpilot.io&gt;<br><b>${sent}</b> ${date}<br><b>${to}</b> Anna Klein &lt;anna@acme.com&gt;<br><b>${subject}</b> Quick question</font><div>&nbsp;</div></div><div><div dir="ltr">${PITCH_HTML}</div></div></body></html>`;
}

export function appleMail(lang: Lang) {
  const attribution: Record<Lang, string> = {
    en: 'On 4 Mar 2025, at 09:12, Sam Carter &lt;sam@growthpilot.io&gt; wrote:',
    de: 'Am 04.03.2025 um 09:12 schrieb Sam Carter &lt;sam@growthpilot.io&gt;:',
    fr: 'Le 4 mars 2025 à 09:12, Sam Carter &lt;sam@growthpilot.io&gt; a écrit&nbsp;:',
    nl: 'Op 4 mrt. 2025 om 09:12 heeft Sam Carter &lt;sam@growthpilot.io&gt; het volgende geschreven:',
    es: 'El 4 mar 2025, a las 9:12, Sam Carter &lt;sam@growthpilot.io&gt; escribió:',
  };
  const [a, b] = ANSWER[lang];
  return `<html aria-label="message body"><head><meta http-equiv="content-type" content="text/html; charset=utf-8"></head><body style="overflow-wrap: break-word; -webkit-nbsp-mode: space; line-break: after-white-space;">${a}<div><br></div><div>${b}</div><div><br id="lineBreakAtBeginningOfMessage"><div><br><blockquote type="cite"><div>${attribution[lang]}</div><br class="Apple-interchange-newline"><div>${PITCH_HTML}</div></blockquote></div><br></div></body></html>`;
}

/** iPhone Mail: the attribution in a blockquote of its own, the quoted mail in a second one, a mobile footer. */
export function iosMail() {
  return `<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"></head><body dir="auto"><div dir="ltr">Yes, Tuesday works.</div><div dir="ltr"><br></div><div dir="ltr">Anna<br><br><div dir="ltr">Sent from my iPhone</div><div dir="ltr"><br><blockquote type="cite">On 4 Mar 2025, at 09:12, Sam Carter &lt;sam@growthpilot.io&gt; wrote:<br><br></blockquote></div><blockquote type="cite"><div dir="ltr">${PITCH_HTML}</div></blockquote></div></body></html>`;
}

export function yahoo(lang: Lang) {
  const attribution: Record<Lang, string> = {
    en: 'On Tuesday, March 4, 2025 at 09:12:00 AM GMT+1, Sam Carter &lt;sam@growthpilot.io&gt; wrote:',
    de: 'Am Dienstag, 4. März 2025 um 09:12:00 MEZ hat Sam Carter &lt;sam@growthpilot.io&gt; Folgendes geschrieben:',
    fr: 'Le mardi 4 mars 2025 à 09:12:00 UTC+1, Sam Carter &lt;sam@growthpilot.io&gt; a écrit :',
    nl: 'Op dinsdag 4 maart 2025 om 09:12:00 CET schreef Sam Carter &lt;sam@growthpilot.io&gt;:',
    es: 'El martes, 4 de marzo de 2025, 09:12:00 CET, Sam Carter &lt;sam@growthpilot.io&gt; escribió:',
  };
  const [a, b] = ANSWER[lang];
  return `<html><head></head><body><div class="ydp3c2e7a1yahoo-style-wrap" style="font-family:Helvetica Neue, Helvetica, Arial, sans-serif;font-size:13px;"><div></div>
        <div dir="ltr" data-setdir="false">${a}</div><div dir="ltr" data-setdir="false"><br></div><div dir="ltr" data-setdir="false">${b}</div><div><br></div>
        </div><div id="yahoo_quoted_4915703261" class="yahoo_quoted">
            <div style="font-family:'Helvetica Neue', Helvetica, Arial, sans-serif;font-size:13px;color:#26282a;">
                <div>
                        ${attribution[lang]}
                    </div>
                    <div><br></div>
                    <div><br></div>
                <div><div id="yiv4485137013"><div>${PITCH_HTML}</div></div></div>
            </div>
        </div></body></html>`;
}

export function thunderbird(lang: Lang) {
  const attribution: Record<Lang, string> = {
    en: 'On 3/4/25 09:12, Sam Carter wrote:',
    de: 'Am 04.03.25 um 09:12 schrieb Sam Carter:',
    fr: 'Le 04/03/2025 à 09:12, Sam Carter a écrit&nbsp;:',
    nl: 'Op 04-03-2025 om 09:12 schreef Sam Carter:',
    es: 'El 4/3/25 a las 9:12, Sam Carter escribió:',
  };
  const [a, b] = ANSWER[lang];
  return `<!DOCTYPE html>
<html>
  <head>
    <meta http-equiv="Content-Type" content="text/html; charset=UTF-8">
  </head>
  <body>
    <p>${a}</p>
    <p>${b}<br>
    </p>
    <div class="moz-cite-prefix">${attribution[lang]}<br>
    </div>
    <blockquote type="cite" cite="mid:CAF1x9Zq@mail.growthpilot.io">
      <meta http-equiv="content-type" content="text/html; charset=UTF-8">
      <p>Hi Anna,</p>
      <p>Would you be open to a 15-minute call next week? Happy to send a demo.</p>
      <p>Sam</p>
    </blockquote>
    <br>
    <div class="moz-signature">-- <br>
      Anna Klein<br>
      VP Sales, Acme</div>
  </body>
</html>`;
}

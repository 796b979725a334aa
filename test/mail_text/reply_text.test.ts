import { describe, expect, it, vi } from 'vitest';
import { htmlToFullText, htmlToOwnText, MAX_HTML_CHARS, tidyText } from '../../lib/mail_text/html_text';
import { replyText } from '../../lib/mail_text/reply_text';
import { appleMail, expectedOwn, gmail, iosMail, outlookDesktop, outlookWeb, thunderbird, yahoo, type Lang } from './fixtures';

const LANGS: Lang[] = ['en', 'de', 'fr', 'nl', 'es'];
const CLIENTS = { gmail, 'Outlook desktop': outlookDesktop, 'Outlook web': (l: Lang) => outlookWeb(l), 'Apple Mail': appleMail, Yahoo: yahoo, Thunderbird: thunderbird };
const MATRIX = Object.entries(CLIENTS).flatMap(([client, build]) => LANGS.map((lang) => [client, lang, build(lang)] as const));

describe('replyText: HTML replies of each client, in five languages', () => {
  it.each(MATRIX)('%s (%s): stripped is the answer alone', (_client, lang, html) => {
    const r = replyText({ html });
    expect(r.stripped).toBe(expectedOwn(lang));
    expect(r.text.startsWith(expectedOwn(lang))).toBe(true);
    expect(r.text).toContain('Would you be open to a 15-minute call next week?');
  });

  it.each(MATRIX)('%s (%s): the client markers alone remove the quote, before the text rules run', (_client, lang, html) => {
    expect(htmlToOwnText(html)).toEqual({ text: expectedOwn(lang), quoteMarked: true });
  });

  it('iPhone Mail: attribution and quote in blockquote[type=cite], the mobile footer cut by the text rules', () => {
    expect(replyText({ html: iosMail() })).toEqual({
      stripped: 'Yes, Tuesday works.\n\nAnna',
      text:
        'Yes, Tuesday works.\n\nAnna\n\nSent from my iPhone\n\n> On 4 Mar 2025, at 09:12, Sam Carter <sam@growthpilot.io> wrote:\n\n' +
        '> Hi Anna,\n>\n> Would you be open to a 15-minute call next week? Happy to send a demo.\n>\n> Sam',
    });
  });

  it('the whole message as text: header lines, links without mailto noise, quotes as "> " lines', () => {
    expect(replyText({ html: outlookDesktop('fr') }).text).toBe(
      'Oui, mardi me convient. À bientôt\n\nAnne\n\nDe : Sam Carter <sam@growthpilot.io>\nEnvoyé : mardi 4 mars 2025 09:12\nÀ : Anna Klein <anna@acme.com>\nObjet : Quick question\n\n' +
        'Hi Anna,\nWould you be open to a 15-minute call next week? Happy to send a demo.\nSam',
    );
    expect(replyText({ html: gmail('en') }).text).toBe(
      'Yes, Tuesday works.\n\nAnna\n\nOn Tue, Mar 4, 2025 at 9:12 AM Sam Carter <sam@growthpilot.io> wrote:\n\n' +
        '> Hi Anna,\n>\n> Would you be open to a 15-minute call next week? Happy to send a demo.\n>\n> Sam',
    );
  });

  it('drops the signatures the clients mark (Gmail, Thunderbird, Outlook web)', () => {
    const gmailSigned = gmail('en').replace(
      '<div>Anna</div></div>',
      '<div>Anna</div><div><br></div><span class="gmail_signature_prefix">-- </span><br><div dir="ltr" class="gmail_signature" data-smartmail="gmail_signature"><div dir="ltr">Anna Klein<br>VP Sales | <a href="https://acme.com">acme.com</a></div></div></div>',
    );
    expect(replyText({ html: gmailSigned }).stripped).toBe('Yes, Tuesday works.\n\nAnna');
    const owaSigned = outlookWeb('de', '<div id="Signature"><div>Anna Schmidt</div><div>Leitung Vertrieb</div></div>');
    expect(replyText({ html: owaSigned }).stripped).toBe(expectedOwn('de'));
    expect(replyText({ html: thunderbird('en') }).text).toContain('--\nAnna Klein\nVP Sales, Acme');
  });
});

describe('replyText: other HTML', () => {
  it('a plain <blockquote> after an "On … wrote:" line is quoted history (the attribution line cuts it)', () => {
    const html =
      '<div>Sounds good, send the deck.</div><div><br></div><div>On Tue, Mar 4, 2025 at 9:12 AM, Sam Carter &lt;sam@growthpilot.io&gt; wrote:</div>' +
      '<blockquote style="margin:0 0 0 .8ex;border-left:1px #ccc solid;padding-left:1ex">Would you be open to a call?</blockquote>';
    expect(replyText({ html }).stripped).toBe('Sounds good, send the deck.');
  });

  it('a plain <blockquote> with no attribution is indentation, not a quote: kept', () => {
    const html = '<div>Our requirements:</div><blockquote style="margin:0 0 0 40px;border:none;padding:0px"><div>SOC 2 and SSO.</div></blockquote><div>Can you meet them?</div>';
    expect(replyText({ html }).stripped).toBe('Our requirements:\nSOC 2 and SSO.\n\nCan you meet them?');
  });

  it('keeps a bottom-posted answer after a marked quote container', () => {
    const html = '<blockquote type="cite"><div>On 4 Mar 2025, at 09:12, Sam Carter &lt;sam@growthpilot.io&gt; wrote:</div><div>Would a call work?</div></blockquote><div>Yes, Tuesday 2pm.</div>';
    expect(replyText({ html }).stripped).toBe('Yes, Tuesday 2pm.');
  });

  it('a bordered div that is not an Outlook header (a signature rule) is kept', () => {
    const html = '<div>Yes, Tuesday works.</div><div style="border-top:1px solid #ccc;padding-top:4px">Anna Klein, VP Sales</div>';
    expect(replyText({ html }).stripped).toBe('Yes, Tuesday works.\nAnna Klein, VP Sales');
  });

  it('a Gmail forward with a note: the note only', () => {
    const html =
      '<div dir="ltr">Looping in Tom, he owns this.</div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">---------- Forwarded message ---------<br>From: <b class="gmail_sendername">Sam Carter</b> <span>&lt;sam@growthpilot.io&gt;</span><br>Date: Tue, Mar 4, 2025 at 9:12 AM<br>Subject: Quick question<br></div><br><div dir="ltr">Hi Anna, would you be open to a call?</div></div>';
    expect(replyText({ html })).toEqual({
      stripped: 'Looping in Tom, he owns this.',
      text: 'Looping in Tom, he owns this.\n\n---------- Forwarded message ---------\nFrom: Sam Carter <sam@growthpilot.io>\nDate: Tue, Mar 4, 2025 at 9:12 AM\nSubject: Quick question\n\nHi Anna, would you be open to a call?',
    });
  });

  it('entities, non-breaking and zero-width spaces', () => {
    const html = '<p>Caf&eacute; &amp; cr&egrave;me&nbsp;br&ucirc;l&eacute;e &lt;3 &#128075;&#x1F3FD; &quot;ja&quot;&#8239;!</p><p>&nbsp;</p><p>Gr&uuml;&szlig;e&#8203;, J&uuml;rgen&nbsp;&nbsp;</p>';
    expect(replyText({ html })).toEqual({ text: 'Café & crème brûlée <3 👋🏽 "ja" !\n\nGrüße, Jürgen', stripped: 'Café & crème brûlée <3 👋🏽 "ja" !\n\nGrüße, Jürgen' });
  });

  it('links as text: the address only where it adds something; no images', () => {
    const html =
      '<div>Write to <a href="mailto:tom@acme.com">tom@acme.com</a> or call <a href="tel:+4930123">+49 30 123</a>.</div>' +
      '<div>Site: <a href="https://www.acme.com/">acme.com</a>, <a href="https://acme.com/pricing">https://acme.com/pricing</a></div>' +
      '<div>Or just <a href="https://calendly.com/tom/30min">book a slot</a>. <a href="https://acme.com"><img src="cid:logo" alt="Acme logo"></a><img src="https://t.example/open.gif" width="1" height="1"></div>';
    expect(replyText({ html }).stripped).toBe(
      'Write to tom@acme.com or call +49 30 123.\nSite: acme.com, https://acme.com/pricing\nOr just book a slot [https://calendly.com/tom/30min].',
    );
  });

  it('line breaks for <br>, <p>, <div>, lists; tables flattened a cell a line; no wrapping', () => {
    const long = 'We looked at this with the whole team and think it could work for our outbound motion next quarter.';
    const html =
      `<p>${long}</p><p>Two questions:<br>first line<br>second line</p><ul><li>Pricing?</li><li>Contract length?</li></ul><ol><li>Call</li><li>Pilot</li></ol>` +
      '<table><tr><td>Anna Klein</td><td>VP Sales</td></tr><tr><td colspan="2">+49 30 1234</td></tr></table><h2>Thanks</h2>';
    expect(replyText({ html }).stripped).toBe(
      `${long}\n\nTwo questions:\nfirst line\nsecond line\n\n- Pricing?\n- Contract length?\n\n 1. Call\n 2. Pilot\n\nAnna Klein\nVP Sales\n+49 30 1234\n\nThanks`,
    );
  });

  it('never prints head, CSS, scripts or Outlook XML, with or without a <body>', () => {
    const fragment = '<style>p { color: red }</style><title>Re: Quick question</title><script>alert(1)</script><xml><o:shapedefaults/></xml><p>Yes please.</p>';
    expect(replyText({ html: fragment })).toEqual({ text: 'Yes please.', stripped: 'Yes please.' });
    expect(replyText({ html: `<html><head>${fragment}</head><body><p>Yes.</p></body></html>` }).text).toBe('Yes.');
  });
});

describe('replyText: which part', () => {
  const PITCH_TEXT = 'Hi Anna,\nWould you be open to a 15-minute call next week? Happy to send a demo.\nSam';

  it('text only: the text rules', () => {
    const text = `Ja, Dienstag passt.\r\n\r\nAm Di., 4. März 2025 um 09:12 Uhr schrieb Sam Carter <sam@growthpilot.io>:\r\n> Hi Anna`;
    expect(replyText({ text })).toEqual({ text: 'Ja, Dienstag passt.\n\nAm Di., 4. März 2025 um 09:12 Uhr schrieb Sam Carter <sam@growthpilot.io>:\n> Hi Anna', stripped: 'Ja, Dienstag passt.' });
    expect(replyText({ text, html: null })).toEqual(replyText({ text }));
  });

  it('both parts: the text part when its stripping works', () => {
    const text = `Yes, Tuesday works (text part).\n\nOn Tue, Mar 4, 2025 at 9:12 AM Sam Carter <sam@growthpilot.io> wrote:\n> ${PITCH_TEXT}`;
    expect(replyText({ text, html: gmail('en') })).toEqual({ text, stripped: 'Yes, Tuesday works (text part).' });
  });

  it('both parts: the HTML when the text part is the whole thread flattened without any quote marker', () => {
    const text = `Yes, Tuesday works.\n\nAnna\n\n${PITCH_TEXT}`;
    expect(replyText({ text, html: gmail('en') })).toEqual({ text, stripped: 'Yes, Tuesday works.\n\nAnna' });
  });

  it('both parts: the HTML when the text part strips to nothing', () => {
    const text = `> ${PITCH_TEXT.replaceAll('\n', '\n> ')}`;
    expect(replyText({ text, html: outlookWeb('nl') })).toEqual({ text, stripped: expectedOwn('nl') });
  });

  it('an empty or blank text part counts as absent', () => {
    expect(replyText({ text: '  \r\n ', html: yahoo('es') }).stripped).toBe(expectedOwn('es'));
    expect(replyText({ text: '', html: yahoo('es') }).text).toContain('escribió:');
  });

  it('only quoted history in the HTML: stripped falls back to the whole text (like stripQuoted), never ""', () => {
    const html = '<div class="gmail_quote"><div class="gmail_attr">On Tue, Mar 4, 2025 at 9:12 AM Sam Carter &lt;sam@growthpilot.io&gt; wrote:<br></div><blockquote class="gmail_quote">Would you be open to a call?</blockquote></div>';
    const whole = 'On Tue, Mar 4, 2025 at 9:12 AM Sam Carter <sam@growthpilot.io> wrote:\n\n> Would you be open to a call?';
    expect(htmlToOwnText(html)).toEqual({ text: '', quoteMarked: true });
    expect(replyText({ html })).toEqual({ text: whole, stripped: whole });
  });

  it('nothing at all: both empty', () => {
    expect(replyText({})).toEqual({ text: '', stripped: '' });
    expect(replyText({ text: null, html: '  ' })).toEqual({ text: '', stripped: '' });
    expect(replyText({ html: '<img src="cid:x">' })).toEqual({ text: '', stripped: '' });
  });
});

// No timing is asserted (benchmarks, not timed tests): these inputs took seconds to minutes before the bounds, so a
// regression makes them hit vitest's 30 s limit instead.
describe('replyText: cost', () => {
  it('a 40 KB HTML thread converts', () => {
    let html = gmail('de');
    while (html.length < 40_000) html = `<div dir="ltr">Noch eine Runde.</div><div class="gmail_quote"><blockquote class="gmail_quote">${html}</blockquote></div>`;
    const r = replyText({ html, text: html.replace(/<[^>]+>/g, ' ') });
    expect(r.stripped).toBe('Noch eine Runde.');
  });

  it('the 1 MB an inbound webhook may carry: a long Outlook thread', () => {
    const earlier = '<p class="MsoNormal"><span style="font-size:11.0pt;color:#1F497D">We reviewed the proposal with procurement and legal this week.<o:p></o:p></span></p>\n'.repeat(50);
    const header = '<div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0in 0in 0in"><p class="MsoNormal"><b>From:</b> Tom<br><b>Sent:</b> Monday<br><b>To:</b> Sam<br><b>Subject:</b> RE: Quick question</p></div>';
    let html = outlookDesktop('en');
    while (html.length < 1_000_000) html = html.replace('<p class="MsoNormal">Sam<o:p></o:p></p>', `<p class="MsoNormal">Sam<o:p></o:p></p>${earlier}${header}`);
    const r = replyText({ html });
    expect(r.stripped).toBe(expectedOwn('en'));
  });

  it('no catastrophic patterns: 40 KB of hostile input converts', () => {
    const hostile = [
      `<a href="https://x.io${'/'.repeat(40_000)}a">x</a>`,
      `<div style="border-top:1px solid">${' '.repeat(40_000)}From</div>`,
      `<p>On ${'a wrote '.repeat(5_000)}</p>`,
      `<p>x on ${'at on '.repeat(6_000)}</p>`,
      `${'<div>'.repeat(8_000)}deep${'</div>'.repeat(8_000)}`.slice(0, 50_000),
      '<p>' + 'De : x<br>'.repeat(4_000) + '</p>',
    ];
    for (const html of hostile) expect(typeof replyText({ html, text: html }).stripped).toBe('string');
  });
});

// 1 MB is what an inbound webhook may carry. Before the HTML was bounded these took 9–23 s (nested <div>) and more;
// no timing is asserted (benchmarks, not timed tests): a regression makes them hit vitest's 30 s limit instead.
describe('replyText: bounded work on 1 MB mails', () => {
  const MB = 1_000_000;
  const FIRST_MAIL = 'This is where the thread started.';

  /** An Outlook desktop reply (the two-line answer on top) above `size` characters of earlier messages. */
  function outlookThread(size: number, headStyles = '') {
    const earlier = '<p class="MsoNormal"><span style="font-size:11.0pt;color:#1F497D">We reviewed the proposal with procurement and legal this week.<o:p></o:p></span></p>\n'.repeat(20);
    const header = '<div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0in 0in 0in"><p class="MsoNormal"><b>From:</b> Tom<br><b>Sent:</b> Monday<br><b>To:</b> Sam<br><b>Subject:</b> RE: Quick question</p></div>';
    const thread = `${header}${earlier}`.repeat(Math.ceil(size / (header.length + earlier.length)));
    return outlookDesktop('en')
      .replace('--></style>', () => `${headStyles}--></style>`)
      .replace('<p class="MsoNormal">Sam<o:p></o:p></p>', () => `<p class="MsoNormal">Sam<o:p></o:p></p>${thread}<p class="MsoNormal">${FIRST_MAIL}</p>`);
  }

  it('a 900 KB Outlook thread below a two-line answer: stripped is the answer; text is the thread cut after the first 128 K of HTML', () => {
    const html = outlookThread(900_000);
    expect(html.length).toBeGreaterThan(900_000);
    const r = replyText({ html });
    expect(r.stripped).toBe(expectedOwn('en'));
    expect(r.text.startsWith(`${expectedOwn('en')}\n\nFrom: Sam Carter <sam@growthpilot.io>`)).toBe(true);
    expect(r.text).toContain('We reviewed the proposal with procurement and legal this week.');
    expect(r.text).not.toContain(FIRST_MAIL);
    expect(r.text.length).toBeLessThan(MAX_HTML_CHARS);
  });

  it('Outlook keeps the styles of the whole thread in <head>: 300 KB of them do not push the answer out', () => {
    const listStyles = Array.from({ length: 2_000 }, (_, i) => `@list l${i}:level1 {mso-level-number-format:bullet; mso-level-text:\\F0B7; mso-level-tab-stop:.5in;}\n`).join('');
    const html = outlookThread(900_000, listStyles.repeat(2));
    expect(html.indexOf('<body')).toBeGreaterThan(300_000);
    expect(replyText({ html }).stripped).toBe(expectedOwn('en'));
  });

  it('1 MB of hostile nesting below an answer: the answer, then the cut-off mark', () => {
    const deep = (open: string, close = '') => `<div>Yes, Tuesday works.</div>${open.repeat(MB / (open.length + close.length))}deep${close.repeat(MB / (open.length + close.length))}`;
    expect(replyText({ html: deep('<div>', '</div>') })).toEqual({ text: 'Yes, Tuesday works.\n...', stripped: 'Yes, Tuesday works.\n...' });
    for (const open of ['<b>', '<span>', '<table><tr><td>', '<ul><li>', '<dl><dd>']) {
      const r = replyText({ html: deep(open) });
      expect(r.stripped.startsWith('Yes, Tuesday works.'), open).toBe(true);
      expect(r.stripped.length, open).toBeLessThan(MAX_HTML_CHARS);
    }
  });

  it('1 MB of hostile flat markup, in both parts', () => {
    for (const unit of ['x<br>', '<p>On x wrote:</p>', '<div style="border-top:1px solid">From: x</div>', '<a href="https://x.io/y">x.io</a> ']) {
      const html = unit.repeat(MB / unit.length);
      const r = replyText({ html, text: html });
      expect(r.text, unit).toBe(tidyText(html));
      expect(htmlToFullText(html).length, unit).toBeLessThan(MAX_HTML_CHARS);
    }
  });

  it('1 MB text parts of hostile lines: the text rules read every line and cut at the quote at the very end', () => {
    const quote = '\n\n-----Original Message-----\nFrom: Sam Carter <sam@growthpilot.io>\nSent: Tuesday\nSubject: Quick question\n\nWould a call work?';
    for (const line of ['1'.repeat(399), 'On x\n1', 'Am x schrieb '.repeat(30).trim(), 'From: x\nTo: y', '@ wrote '.repeat(40).trim(), 'Sent: x']) {
      const own = `Yes, Tuesday works.\n${`${line}\n`.repeat(MB / (line.length + 1))}`.trimEnd();
      expect(replyText({ text: own + quote }).stripped === own, line.slice(0, 20)).toBe(true);
    }
  });

  it('html-to-text prints nothing for a huge mail (no limits.maxInputLength warning)', () => {
    const spies = (['log', 'info', 'warn', 'error'] as const).map((m) => vi.spyOn(console, m));
    try {
      replyText({ html: outlookThread(MB) });
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});

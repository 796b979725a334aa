// HTML mail bodies to plain text with html-to-text (pure JS: htmlparser2 + selderee, no Node APIs, so it runs
// on Workers), in two renderings: the whole message, and the prospect's own part with the quoted history removed
// by the markers mail clients put in their HTML. What each client writes is listed in docs/html_mail.md.
import { compile, type FormatCallback, type HtmlToTextOptions, type SelectorDefinition } from 'html-to-text';

// Noncharacters (Unicode reserves them for internal use): the own-part formatters write them where quoted
// history was, and the text after the conversion is cut or cleaned at them. The same characters in the mail's
// text are dropped by `encodeCharacters` (all text but <pre>, where one could only cut the sender's own mail).
const CUT = '\uFDD0';
const REMOVED = '\uFDD1';

/** Quote containers: the element holds the quoted mail (attribution included); it is dropped, what follows stays. */
const QUOTE_CONTAINERS = [
  'div.gmail_quote', // Gmail (also `gmail_quote gmail_quote_container`): attribution + blockquote.gmail_quote
  '.gmail_attr', // Gmail's "On … wrote:" line, in case a client copied it without its container
  'div.gmail_extra', // Gmail before 2017
  'blockquote[type=cite]', // Apple Mail, iOS Mail, Thunderbird
  '.moz-cite-prefix', // Thunderbird's "On … wrote:" before its blockquote[type=cite]
  '.yahoo_quoted', // Yahoo Mail
];

/** Header markers: the quoted mail follows the marker as its siblings, so the marker and all after it goes. */
const QUOTE_HEADERS = [
  '#appendonsend', // Outlook on the web / new Outlook: empty div before the <hr> and #divRplyFwdMsg
  '#divRplyFwdMsg', // Outlook on the web, Outlook for iOS/Android: the From/Sent/To/Subject block
  '.OutlookMessageHeader', // Outlook 2003–2007
  '#OLK_SRC_BODY_SECTION', // Outlook for Mac
  '#mail-editor-reference-message-container', // new Outlook for Windows
];

/** Signature blocks the clients mark as such. */
const SIGNATURES = ['.gmail_signature', '.gmail_signature_prefix', '.moz-signature', '#Signature', '#ms-outlook-mobile-signature'];

// Outlook desktop (Windows and Mac) marks the quoted mail's header only by its style: a div with a top border
// holding "From: … Sent: …". A top border alone is too common (signatures), so the text must start with the label.
const OUTLOOK_BORDER_HEADER = 'div[style*="border-top"]';
const HEADER_LABEL = /^[\s\u00a0*]*(From|Von|De|Van|Da)[\s\u00a0*]*:/i;

type Node = Parameters<FormatCallback>[0];

/**
 * The text of an element, up to `max` characters and 2,000 nodes (it runs for every link and bordered div, so
 * a hostile mail must not make it quadratic), walked without recursion (mail HTML can nest deeply).
 */
function textOf(elem: Node, max = 300): string {
  let out = '';
  let visits = 0;
  const stack: Node[] = [...(elem.children ?? [])].reverse();
  while (stack.length && out.length < max && visits++ < 2000) {
    const node = stack.pop()!;
    if (node.type === 'text') out += node.data ?? '';
    else if (node.children) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return out;
}

// The link's text always; its address in brackets only when it adds something (not for mailto:/tel:, anchors,
// image-only links, or an address the text already shows: "acme.com" for https://www.acme.com/).
function bareUrl(s: string): string {
  const url = s.trim().toLowerCase().replace(/^[a-z][a-z0-9+.-]*:(\/\/)?/, '').replace(/^www\./, '');
  // A loop, not /\/+$/: that pattern is quadratic on a long run of slashes.
  let end = url.length;
  while (end > 0 && url[end - 1] === '/') end--;
  return url.slice(0, end);
}
const formatLink: FormatCallback = (elem, walk, builder) => {
  walk(elem.children, builder);
  const href = String(elem.attribs?.href ?? '').trim();
  const text = textOf(elem, 2000).trim();
  if (!href || !text || /^(mailto|tel|sms|cid|javascript):|^#/i.test(href) || bareUrl(href) === bareUrl(text)) return;
  builder.addInline(` [${href}]`, { noWordTransform: true });
};

const formatCut: FormatCallback = (_elem, _walk, builder) => {
  builder.openBlock({ leadingLineBreaks: 1 });
  builder.addLiteral(CUT);
  builder.closeBlock({ trailingLineBreaks: 1 });
};
const formatRemoved: FormatCallback = (_elem, _walk, builder) => builder.addLiteral(REMOVED);
const formatOutlookBorder: FormatCallback = (elem, walk, builder) => {
  if (HEADER_LABEL.test(textOf(elem))) return formatCut(elem, walk, builder, {});
  builder.openBlock({ leadingLineBreaks: 1 });
  walk(elem.children, builder);
  builder.closeBlock({ trailingLineBreaks: 1 });
};

const block = (selector: string, lines = 1): SelectorDefinition => ({ selector, format: 'block', options: { leadingLineBreaks: lines, trailingLineBreaks: lines } });

const COMMON: HtmlToTextOptions = {
  wordwrap: false,
  // Fragments without <body> are common in webhook payloads; never print <head>, CSS or scripts as text.
  baseElements: { selectors: ['body'], returnDomByDefault: true },
  encodeCharacters: { [CUT]: '', [REMOVED]: '' },
  // Not U+200B (html-to-text's default counts it as a space): it is invisible, so tidyText deletes it.
  whitespaceCharacters: ' \t\r\n\f',
  // Deeper nesting than any real mail is cut off (with "...") rather than recursing toward a stack overflow.
  limits: { maxDepth: 400 },
  formatters: { link: formatLink, cut: formatCut, removed: formatRemoved, outlookBorder: formatOutlookBorder },
  selectors: [
    { selector: 'a', format: 'link' },
    { selector: 'img', format: 'skip' },
    ...['head', 'style', 'script', 'title', 'meta', 'xml', 'template', 'noscript'].map((selector) => ({ selector, format: 'skip' })),
    // Outlook writes each line as <p class=MsoNormal> with no margin: one line each, not a paragraph each.
    block('p.MsoNormal'),
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } })),
    { selector: 'ul', options: { itemPrefix: '- ' } },
    // Mail tables are layout (signatures, Outlook templates): one cell per line, never a drawn grid.
    block('table'),
    block('tr'),
    block('td'),
    block('th'),
  ],
};

/** The whole message: quoted history kept, blockquotes as "> " lines the way a plain-text client shows them. */
const renderFull = compile(COMMON);

/** The own part: quote containers and signatures dropped, header markers cut to the end, other blockquotes kept. */
const renderOwn = compile({
  ...COMMON,
  selectors: [
    ...COMMON.selectors!,
    // A blockquote with no client marker is often just indentation; an "On … wrote:" before it is cut later.
    block('blockquote', 2),
    ...[...QUOTE_CONTAINERS, ...SIGNATURES].map((selector) => ({ selector, format: 'removed' })),
    ...QUOTE_HEADERS.map((selector) => ({ selector, format: 'cut' })),
    { selector: OUTLOOK_BORDER_HEADER, format: 'outlookBorder' },
  ],
});

/**
 * The most HTML html-to-text is given (UTF-16 code units: 128–384 KB of UTF-8). htmlparser2 keeps its open
 * elements in an array it `unshift`s, so the parse costs the square of the nesting depth (1 MB of nested `<div>`
 * took 4–23 s; `limits.maxDepth` only shortens the walk after the parse), and a Worker has a CPU budget per request.
 * The prospect's words are at the top of a reply and quoted history is the bulk, so the tail of a huge mail is
 * dropped: 128 K keeps the worst nesting we found under about 0.3 s for both renderings (docs/html_mail.md, "Cost").
 * We cut ourselves rather than set `limits.maxInputLength`, which prints a console warning for every such mail.
 */
export const MAX_HTML_CHARS = 128 * 1024;
const BODY_START = /<body[\s>]/i;

/**
 * The HTML to convert: short mails unchanged; a longer one from its `<body>` (nothing before it is printed, and
 * Outlook's head carries the list styles of the whole thread), up to MAX_HTML_CHARS. A tag cut in half at the end
 * is dropped by the parser; a surrogate pair is never split.
 */
function bounded(html: string): string {
  if (html.length <= MAX_HTML_CHARS) return html;
  const body = Math.max(0, html.search(BODY_START));
  let end = Math.min(html.length, body + MAX_HTML_CHARS);
  const last = html.charCodeAt(end - 1);
  if (end < html.length && last >= 0xd800 && last <= 0xdbff) end--;
  return html.slice(body, end);
}

/**
 * Line endings, non-breaking and zero-width spaces, trailing blanks made plain; a run of empty lines (or of empty
 * quoted lines, ">") becomes one: html-to-text writes two for Gmail's `<div><br></div>`, browsers show one.
 */
export function tidyText(text: string): string {
  const lines = text
    .replace(/\r\n?/g, '\n')
    .replace(/[\u00a0\u202f]/g, ' ')
    .replace(/[\u200b\ufeff]/g, '')
    .split('\n')
    .map((line) => line.trimEnd());
  const kept = lines.filter((line, i) => i === 0 || !/^[> ]*$/.test(line) || line !== lines[i - 1]);
  return kept.join('\n').trim();
}

/** The whole HTML message as plain text (of a mail longer than MAX_HTML_CHARS, its first MAX_HTML_CHARS). */
export function htmlToFullText(html: string): string {
  return tidyText(renderFull(bounded(html)));
}

/**
 * The HTML message with the quoted history its client marked removed, as plain text (the text-level rules still
 * have to run on it), and whether any marker was found.
 */
export function htmlToOwnText(html: string): { text: string; quoteMarked: boolean } {
  const rendered = renderOwn(bounded(html));
  const cutAt = rendered.indexOf(CUT);
  const kept = cutAt < 0 ? rendered : rendered.slice(0, cutAt);
  return { text: tidyText(kept.replaceAll(REMOVED, '')), quoteMarked: cutAt >= 0 || kept.includes(REMOVED) };
}

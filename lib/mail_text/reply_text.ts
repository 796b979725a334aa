// One prospect reply, as a sending tool delivers it (plain text, HTML, or both), to the two texts the service
// keeps: the whole message, and only what the prospect wrote in this reply (what the classifier and the
// conversation thread get). Pure string work on html-to-text and our line rules: runs under Node and on Workers.
import { splitQuoted } from '../classify/strip_quoted';
import { htmlToFullText, htmlToOwnText, tidyText } from './html_text';

export type ReplyParts = { text?: string | null; html?: string | null };

/**
 * - `text`: the whole message as plain text: the text part when it has any text, else the HTML converted.
 * - `stripped`: what the prospect wrote, without quoted history, forwarded blocks, signatures and footers.
 *   From the text part, unless the HTML's version is the better one: when the text part's stripping leaves
 *   nothing, or when the HTML marked quoted history that the text part shows without any quote marker (the text
 *   part is then the whole thread flattened, e.g. by a sending tool that derives it from the HTML).
 *   When nothing of the prospect's own remains (an empty reply, or everything quoted), `stripped` is `text`,
 *   the same rule as `stripQuoted`: the classifier and the thread never get '' for a mail that has text.
 */
export function replyText(parts: ReplyParts): { text: string; stripped: string } {
  const plain = parts.text?.trim() ? tidyText(parts.text) : '';
  const html = parts.html?.trim() ? parts.html : '';
  const text = plain || (html ? htmlToFullText(html) : '');

  const fromText = plain ? splitQuoted(plain) : null;
  // The text part's rules found the quote and left the answer: the HTML cannot do better, so it is not rendered.
  if (fromText?.own && fromText.quoted) return { text, stripped: fromText.own };
  const fromHtml = html ? ownPartOfHtml(html) : null;

  let stripped: string;
  if (!fromText) stripped = fromHtml?.own ?? '';
  else if (!fromHtml) stripped = fromText.own;
  else if (!fromText.own || fromHtml.quoted) stripped = fromHtml.own;
  else stripped = fromText.own;
  return { text, stripped: stripped || text };
}

/** The HTML's own part after the client markers and then the text rules; `quoted` if either removed something. */
function ownPartOfHtml(html: string): { own: string; quoted: boolean } {
  const marked = htmlToOwnText(html);
  const split = splitQuoted(marked.text);
  return { own: split.own, quoted: marked.quoteMarked || split.quoted };
}

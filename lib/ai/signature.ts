// Who signs a draft, and how it ends. Decision: the sender is the request's `sender_name` when given, else the
// name under the sign-off of our last outbound message in the thread (the same person is answering), else
// nobody — then the draft ends with the closing formula alone and the sending tool adds its signature. A name
// is never derived from a mailbox address (jane.doe@ may be a shared inbox). A draft has one closing: when its
// last sentence is a well-wish ("All the best with everything at Acme"), that wish is the closing and no
// "Best," is added under it.

import type { Draft } from './draft';
import type { Lang } from './lang';
import type { Medium, PreviousMessage } from './types';

const VALEDICTION = /^(best|best regards|kind regards|warm regards|regards|cheers|thanks|many thanks|thank you|talk soon|all the best|viele grüße|beste grüße|freundliche grüße|mit freundlichen grüßen|liebe grüße|herzliche grüße|gruß|lg|vg|cordialement|bien cordialement|bien à vous|à bientôt|un saludo|saludos|saludos cordiales|un cordial saludo|atentamente|un abrazo|met vriendelijke groet|vriendelijke groet|hartelijke groet|groeten|groet)[,.!]?$/i;
const NAME_LINE = /^[\p{Lu}][\p{L}'’.-]*(?:\s[\p{L}'’.-]+){0,3}$/u;

/** The name under a message's sign-off ("Viele Grüße\nJonas" → "Jonas"), or after a dash ("— Sam"). */
export function signatureName(message: string): string | null {
  const lines = message.replace(/\r/g, '').split('\n').map((l) => l.trim());
  while (lines.length && !lines[lines.length - 1]) lines.pop();
  const n = lines.length;
  for (let k = Math.max(0, n - 5); k < n - 1; k++) {
    if (!VALEDICTION.test(lines[k])) continue;
    const name = lines[k + 1];
    if (name && name.length <= 40 && NAME_LINE.test(name) && !name.includes('@')) return name;
  }
  const dash = /^[—–-]\s?([\p{Lu}][\p{L}'’ .-]{0,38})$/u.exec(lines[n - 1] ?? '');
  return dash ? dash[1].trim() : null;
}

export function senderOf(senderName: string | null | undefined, previous: PreviousMessage[] | null | undefined): string | null {
  const given = (senderName ?? '').trim();
  if (given && !given.includes('@')) return given;
  const ours = (previous ?? []).filter((m) => m.role === 'outbound').reverse();
  for (const m of ours) {
    const name = signatureName(m.content);
    if (name) return name;
  }
  return null;
}

/**
 * Sets the sign-off: the closing formula and the sender's name under it; or, when the body ends with a closing
 * well-wish, that wish with the name under it. Only email carries a sign-off.
 */
export function closeDraft(draft: Draft, o: { formula: string | null; sender: string | null; lang: Lang; medium: Medium }): Draft {
  const parts = draft.parts.filter((p) => o.medium === 'email' || !p.closing);
  if (o.medium !== 'email') return { ...draft, parts, signOff: null };
  const last = parts[parts.length - 1];
  if (last?.closing) {
    const wish = last.text.replace(/[.!,\s]+$/, '');
    // German letters put no comma after the closing line; the other four do.
    const signOff = o.sender ? `${wish}${o.lang === 'de' ? '' : ','}\n${o.sender}` : `${wish}.`;
    return { ...draft, parts: parts.slice(0, -1), signOff };
  }
  return { ...draft, parts, signOff: o.formula ? (o.sender ? `${o.formula}\n${o.sender}` : o.formula) : o.sender };
}

/** After a learned sign-off was adopted ("Cheers,\nSam"): the closing word is the team's style, the name is this sender's. */
export function resign(draft: Draft, sender: string | null): Draft {
  if (!sender || !draft.signOff) return draft;
  const [first] = draft.signOff.split('\n');
  return first === sender ? draft : { ...draft, signOff: `${first}\n${sender}` };
}

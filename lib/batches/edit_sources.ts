// The sources of an edited mail. The new body is split the way the writer splits (lib/writing/sentences); a
// sentence equal to one of the old mail (white space collapsed, case kept) keeps that sentence's source, null
// included: an edit elsewhere in the mail does not vouch for a sentence the writer could not source. A sentence the
// person (or the assistant) wrote is sourced by its author: `{ kind: 'edit', ref: <actor> }`.
import type { SentenceSource, WrittenMail, WrittenSentence } from '../../schema';
import { splitSentences } from '../writing/sentences';

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

// The splitter may cut where the writer did not ("e.g. SDRs?"): up to this many pieces are joined to find an old
// sentence before a piece counts as new.
const MAX_JOIN = 4;

export type EditedSentences = { sentences: WrittenSentence[]; kept: number; added: number; removed: number };

export function sourcesAfterEdit(before: WrittenMail, body: string, actor: string): EditedSentences {
  // Each old sentence can be kept once: two equal sentences keep their two sources in order.
  const unused = new Map<string, (SentenceSource | null)[]>();
  for (const s of before.sentences) {
    const key = norm(s.text);
    unused.set(key, [...(unused.get(key) ?? []), s.source]);
  }
  const pieces = splitSentences(body).map((p) => p.text);
  const sentences: WrittenSentence[] = [];
  let kept = 0;
  for (let i = 0; i < pieces.length; ) {
    let matched = 0;
    for (let n = Math.min(MAX_JOIN, pieces.length - i); n >= 1 && !matched; n--) {
      const text = pieces.slice(i, i + n).join(' ');
      const sources = unused.get(norm(text));
      if (sources?.length) {
        sentences.push({ text, source: sources.shift()! });
        matched = n;
      }
    }
    if (matched) {
      kept++;
      i += matched;
    } else {
      sentences.push({ text: pieces[i], source: { kind: 'edit', ref: actor } });
      i++;
    }
  }
  return { sentences, kept, added: sentences.length - kept, removed: before.sentences.length - kept };
}

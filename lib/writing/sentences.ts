// Splitting mail text into sentences and joining them back. Deterministic and dependency-free, so a template, a
// written mail and a review edit split the same way. A sentence remembers the break before it (none, a line, a
// paragraph), so the body built from sentences keeps the mail's greeting, paragraphs and sign-off lines.

export type Break = '' | '\n' | '\n\n';
export type Piece = { text: string; brk: Break };

// End of a sentence: . ! ? (optionally closed by a quote or bracket) followed by white space. `{{custom.x}}` and
// `e.g.x` never split because no space follows the dot.
const SENTENCE_END = /(?<=[.!?]["')\]]?)\s+(?=\S)/;

/** The sentences of a text, each with the break that came before it in the original. */
export function splitSentences(text: string): Piece[] {
  const out: Piece[] = [];
  let pending: Break = '';
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (line.trim() === '') {
      if (out.length) pending = '\n\n';
      continue;
    }
    const parts = line.trim().split(SENTENCE_END).filter((s) => s.trim() !== '');
    parts.forEach((p, i) => {
      out.push({ text: p.trim(), brk: out.length === 0 ? '' : i === 0 ? (pending || '\n') : '' });
      pending = '';
    });
  }
  return out;
}

/** The body a reader sees: sentences of a line joined by a space, lines and paragraphs kept. */
export function joinSentences(pieces: readonly Piece[]): string {
  return pieces.map((p, i) => (i === 0 ? p.text : `${p.brk || ' '}${p.text}`)).join('');
}

/** Whitespace collapsed and case folded: how two sentences or phrases are compared. */
export const normalise = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

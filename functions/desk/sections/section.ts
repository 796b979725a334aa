import type { PageArgs, PageRoute } from '../../../lib/web/face';

/** One line of a section's short list on the desk home: what waits, where to open it. */
export type SectionItem = { href: string; text: string; meta: string };

/**
 * A queue of things waiting for a person at the desk. The desk home lists every section (title, count, the first
 * few items) and the face serves every section's pages, so a new queue (plans waiting for a person, costs that
 * need one) is one module added to DESK_SECTIONS (./index.ts), not a new app.
 */
export type DeskSection = {
  id: string;
  title: string;
  /** Where the section's full list lives, relative to the desk's base. */
  href: string;
  summary(args: PageArgs): Promise<{ count: number; items: SectionItem[] }>;
  pages: PageRoute[];
};

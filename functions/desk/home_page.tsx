import type { PageArgs } from '../../lib/web/face';
import { Layout } from '../../lib/web/layout';
import { signedIn } from './review/labels';
import type { DeskSection } from './sections/section';

/** GET /desk/: every section's count and first few items, each with a link to its full list. */
export function homePage(sections: DeskSection[]) {
  return async (args: PageArgs) => {
    const { c, base, session } = args;
    const summaries = await Promise.all(sections.map(async (s) => ({ section: s, ...(await s.summary(args)) })));
    return c.html(
      <Layout title="Review desk" base={base} faceName="Review desk" signedInAs={signedIn(session)}>
        <h1>Review desk</h1>
        {summaries.map(({ section, count, items }) => (
          <section class="desk-section" aria-labelledby={`section-${section.id}`} data-section={section.id}>
            <h2 id={`section-${section.id}`}>
              <a href={`${base}${section.href}`}>{section.title}</a>
            </h2>
            <p class="count">{count === 0 ? 'Nothing waiting.' : `${count} waiting.`}</p>
            {items.length > 0 ? (
              <ul class="short-list">
                {items.map((i) => (
                  <li>
                    <a href={i.href}>{i.text}</a> <span class="meta">{i.meta}</span>
                  </li>
                ))}
              </ul>
            ) : null}
            {count > items.length ? (
              <p>
                <a href={`${base}${section.href}`}>{`All ${count}`}</a>
              </p>
            ) : null}
          </section>
        ))}
      </Layout>,
    );
  };
}

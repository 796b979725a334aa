import type { Child } from 'hono/jsx';

// The frame every page of the portal and the desk shares: landmarks, a skip link, the face's own stylesheet (same
// origin: the CSP allows nothing else), no script. Text is escaped by hono/jsx; nothing here builds HTML by hand.
export function Layout(props: { title: string; base: string; faceName: string; signedInAs?: { name: string; csrfToken: string }; children?: Child }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>{`${props.title} · ${props.faceName}`}</title>
        <link rel="stylesheet" href={`${props.base}/assets/portal.css`} />
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="top">
          <span class="brand">{props.faceName}</span>
          {props.signedInAs ? (
            <form method="post" action={`${props.base}/sign-out`} class="signout">
              <span class="who">{props.signedInAs.name}</span>
              <input type="hidden" name="_csrf" value={props.signedInAs.csrfToken} />
              <button type="submit">Sign out</button>
            </form>
          ) : null}
        </header>
        <main id="main" tabindex={-1}>
          {props.children}
        </main>
      </body>
    </html>
  );
}

/** A refusal or notice as a page: a heading and one sentence saying what happened and what to do. */
export function ProblemPage(props: { base: string; faceName: string; title: string; message: string; signedInAs?: { name: string; csrfToken: string }; link?: { href: string; text: string } }) {
  return (
    <Layout title={props.title} base={props.base} faceName={props.faceName} signedInAs={props.signedInAs}>
      <section class="notice" aria-labelledby="problem-title">
        <h1 id="problem-title">{props.title}</h1>
        <p>{props.message}</p>
        {props.link ? <p><a href={props.link.href}>{props.link.text}</a></p> : null}
      </section>
    </Layout>
  );
}

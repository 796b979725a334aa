import { Layout } from './layout';

/** The link's landing: one button that POSTs, so opening the link (a mail scanner, a preview) uses nothing. */
export function SignInPage(props: { base: string; faceName: string; action: string }) {
  return (
    <Layout title="Sign in" base={props.base} faceName={props.faceName}>
      <section class="notice signin" aria-labelledby="signin-title">
        <h1 id="signin-title">Sign in</h1>
        <p>This link signs you in once. Continue to open your {props.faceName.toLowerCase()}.</p>
        <form method="post" action={props.action}>
          <button type="submit" class="primary">
            Sign in
          </button>
        </form>
      </section>
    </Layout>
  );
}

import { newGroup } from '../../lib/http/env';
import { faceMiddleware, type Face, type PageArgs } from '../../lib/web/face';
import { Layout } from '../../lib/web/layout';
import { deskUrl } from '../../lib/web/urls';
import { PORTAL_CSS } from '../portal/assets';


// For now the desk is its sign-in and a landing page; the review queue's sections come next (issue 19).
function deskHome({ c, base, session }: PageArgs) {
  return c.html(
    <Layout title="Review desk" base={base} faceName="Review desk" signedInAs={{ name: session.user.name, csrfToken: session.csrfToken }}>
      <h1>Review desk</h1>
      <p>{`Signed in as ${session.user.name} (${session.user.email}).`}</p>
    </Layout>,
  );
}

export const deskFace: Face = {
  kind: 'desk',
  name: 'Review desk',
  cookieName: 'ris_desk',
  url: deskUrl,
  home: '/',
  css: PORTAL_CSS,
  pages: [{ method: 'GET', pattern: '/', handle: deskHome }],
};

export const deskGroup = newGroup();
deskGroup.use('*', faceMiddleware(deskFace));

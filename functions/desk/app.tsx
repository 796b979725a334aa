import { newGroup } from '../../lib/http/env';
import { faceMiddleware, type Face } from '../../lib/web/face';
import { deskUrl } from '../../lib/web/urls';
import { PORTAL_CSS } from '../portal/assets';
import { homePage } from './home_page';
import { DESK_SECTIONS } from './sections';

/**
 * The review desk (issue 19) at {PUBLIC_BASE_URL}/desk for the agency's people, signed in by link: a home listing
 * every section (a queue waiting for a person) and each section's pages (functions/desk/sections).
 */
export const deskFace: Face = {
  kind: 'desk',
  name: 'Review desk',
  cookieName: 'ris_desk',
  url: deskUrl,
  home: '/',
  css: PORTAL_CSS,
  pages: [{ method: 'GET', pattern: '/', handle: homePage(DESK_SECTIONS) }, ...DESK_SECTIONS.flatMap((s) => s.pages)],
};

export const deskGroup = newGroup();
deskGroup.use('*', faceMiddleware(deskFace));

import { newGroup } from '../../lib/http/env';
import { faceMiddleware, type Face } from '../../lib/web/face';
import { PORTAL_CSS } from './assets';
import { editLead } from './edit_lead';
import { leadPage } from './lead_page';
import { leadsPage } from './leads_page';

/** The client portal (issue 19): server-rendered pages at PORTAL_URL for a client's people, signed in by link. */
export const portalFace: Face = {
  kind: 'portal',
  name: 'Client portal',
  cookieName: 'ris_portal',
  url: (config) => config.portalUrl,
  home: '/leads',
  css: PORTAL_CSS,
  pages: [
    { method: 'GET', pattern: '/leads', handle: leadsPage },
    { method: 'GET', pattern: '/leads/:id', handle: leadPage },
    { method: 'POST', pattern: '/leads/:id', handle: editLead },
  ],
};

export const portalGroup = newGroup();
portalGroup.use('*', faceMiddleware(portalFace));

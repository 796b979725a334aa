import { editPortalLead, parsePortalEdit } from '../../lib/portal/edit';
import { ApiError } from '../../lib/errors';
import { readForm, type PageArgs } from '../../lib/web/face';
import { isUuid } from '../../lib/ids';

/** POST {portal}/leads/{id}: the lead page's form; saved → back to the page (post/redirect/get). */
export async function editLead({ c, services, base, session, params, problem }: PageArgs) {
  if (!isUuid(params.id)) return problem(404, 'Not found', 'There is no lead at this address.');
  const form = (await readForm(c)) ?? {};
  const edit = parsePortalEdit(form);
  try {
    await editPortalLead({ services, session, leadId: params.id, edit });
  } catch (err) {
    if (err instanceof ApiError && err.code === 'conflict') {
      return problem(409, 'Changed meanwhile', 'Someone changed this lead after you opened the page, so nothing was saved. Open the lead again to see the change, then make yours.');
    }
    throw err;
  }
  return c.redirect(`${base}/leads/${params.id}`, 303);
}

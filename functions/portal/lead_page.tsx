import { PHASES } from '../../lib/crm/update_lead';
import { portalLeadPage } from '../../lib/portal/leads';
import { Layout } from '../../lib/web/layout';
import type { PageArgs } from '../../lib/web/face';
import { portalTenant } from './tenant';

const label = (s: string) => s.replace(/_/g, ' ');
const when = (iso: string) => iso.slice(0, 16).replace('T', ' ') + ' UTC';
const ROLE = { reply: 'Reply from the lead', outbound: 'Sent to the lead' } as const;

// Amounts in one fixed locale: the page has no reader's locale to go by, and one format reads the same everywhere.
// Cents only when there are any; a code Intl does not know is shown as the CRM stored it.
function money(deal: { value: number; currency: string }) {
  const cents = Number.isInteger(deal.value) ? 0 : 2;
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: deal.currency, minimumFractionDigits: cents, maximumFractionDigits: cents }).format(deal.value);
  } catch {
    return `${new Intl.NumberFormat('en', { maximumFractionDigits: 2 }).format(deal.value)} ${deal.currency}`;
  }
}

/**
 * GET {portal}/leads/{id}: exactly the CRM API's thread_url. The CRM fields, the whole conversation in time order
 * and the Decision Trail with its actors (key names, approvers). Another client's or a hidden lead is a 404 page.
 */
export async function leadPage({ c, services, base, session, params }: PageArgs) {
  const { lead, thread, trail } = await portalLeadPage(services.db, portalTenant(session), params.id, services.config.portalUrl);
  const title = lead.name ?? lead.email;
  return c.html(
    <Layout title={title} base={base} faceName="Client portal" signedInAs={{ name: session.user.name, csrfToken: session.csrfToken }}>
      <p>
        <a href={`${base}/leads`}>All leads</a>
      </p>
      <h1>{title}</h1>
      {/* Two columns on wide screens (the stylesheet's .split): the conversation first, in reading order too. */}
      <div class="split">
        <div class="primary-col">
          <section aria-labelledby="thread-title">
            <h2 id="thread-title">Conversation</h2>
            {thread.length === 0 ? (
              <p>No messages yet.</p>
            ) : (
              <ol class="thread">
                {thread.map((m) => (
                  <li class={m.role}>
                    <span class="meta">{`${ROLE[m.role]} · ${when(m.at)}`}</span>
                    <p>{m.content}</p>
                  </li>
                ))}
              </ol>
            )}
          </section>
          <section aria-labelledby="trail-title">
            <h2 id="trail-title">Decision Trail</h2>
            {trail.length === 0 ? (
              <p>Nothing recorded yet.</p>
            ) : (
              <ol class="trail">
                {trail.map((d) => (
                  <li>
                    <span class="meta">{when(d.at)}</span> <strong>{d.action}</strong> by <span class="actor">{d.actor}</span>
                    {typeof d.detail.approver === 'string' ? <span>{` (approved by ${d.detail.approver})`}</span> : null}
                  </li>
                ))}
              </ol>
            )}
          </section>
        </div>
        <div class="side-col">
          <section aria-labelledby="crm-title">
            <h2 id="crm-title">Deal</h2>
            <dl class="fields">
              <dt>Email</dt>
              <dd>{lead.email}</dd>
              <dt>Campaign</dt>
              <dd>{lead.campaign.name}</dd>
              <dt>Classification</dt>
              <dd>{label(lead.classification)}</dd>
              <dt>Phase</dt>
              <dd>{label(lead.phase)}</dd>
              <dt>Deal</dt>
              <dd>{lead.deal ? money(lead.deal) : '—'}</dd>
              <dt>Next action</dt>
              <dd>{lead.next_action ? `${lead.next_action.date}: ${lead.next_action.note}` : '—'}</dd>
            </dl>
            <h2 id="notes-title">Notes</h2>
            {lead.notes.length === 0 ? (
              <p>No notes yet.</p>
            ) : (
              <ul class="notes" aria-labelledby="notes-title">
                {lead.notes.map((n) => (
                  <li>
                    <span class="meta">{`${when(n.at)} · ${n.by}`}</span>
                    <p>{n.text}</p>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="edit-title">
            <h2 id="edit-title">Update</h2>
            <form method="post" action={`${base}/leads/${lead.id}`} class="edit">
              <input type="hidden" name="_csrf" value={session.csrfToken} />
              <input type="hidden" name="if_updated_at" value={lead.crm_updated_at ?? ''} />
              <p>
                <label for="phase">Phase</label>
                <br />
                <select id="phase" name="phase">
                  {PHASES.map((p) => (
                    <option value={p} selected={lead.phase === p}>
                      {label(p)}
                    </option>
                  ))}
                </select>
              </p>
              <p>
                <label for="next_action_date">Next action date</label>
                <br />
                <input type="date" id="next_action_date" name="next_action_date" value={lead.next_action?.date ?? ''} />
              </p>
              <p>
                <label for="next_action_note">Next action</label>
                <br />
                <input type="text" id="next_action_note" name="next_action_note" maxlength={2000} value={lead.next_action?.note ?? ''} />
              </p>
              <p>
                <label for="note">Add a note</label>
                <br />
                <textarea id="note" name="note" rows={3} cols={40} maxlength={5000}></textarea>
              </p>
              <button type="submit" class="primary">
                Save
              </button>
            </form>
          </section>
        </div>
      </div>
    </Layout>,
  );
}

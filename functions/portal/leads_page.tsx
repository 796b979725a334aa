import { PHASES } from '../../lib/crm/update_lead';
import type { CrmLead } from '../../lib/crm/view';
import { CRM_CLASSIFICATIONS } from '../../lib/crm/visibility';
import { listPortalLeads, parsePortalFilters, type PortalFilters } from '../../lib/portal/leads';
import { Layout } from '../../lib/web/layout';
import type { PageArgs } from '../../lib/web/face';
import { portalTenant } from './tenant';

const label = (s: string) => s.replace(/_/g, ' ');
const when = (iso: string | null) => (iso ? iso.slice(0, 16).replace('T', ' ') + ' UTC' : '—');

function pageHref(base: string, f: PortalFilters, page: number) {
  const q = new URLSearchParams();
  if (f.classification) q.set('classification', f.classification);
  if (f.phase) q.set('phase', f.phase);
  if (page > 1) q.set('page', String(page));
  const s = q.toString();
  return `${base}/leads${s ? `?${s}` : ''}`;
}

/** GET {portal}/leads: the client's visible leads, newest activity first, filtered by a plain GET form. */
export async function leadsPage({ c, services, base, session, problem }: PageArgs) {
  let filters: PortalFilters;
  try {
    filters = parsePortalFilters(c.req.query());
  } catch (err) {
    return problem(400, 'Cannot filter like that', (err as Error).message);
  }
  const tenant = portalTenant(session);
  const { leads, hasMore } = await listPortalLeads(services.db, tenant, filters, services.config.portalUrl);
  return c.html(
    <Layout title="Leads" base={base} faceName="Client portal" signedInAs={{ name: session.user.name, csrfToken: session.csrfToken }}>
      <h1>Leads</h1>
      <form method="get" action={`${base}/leads`} class="filters" role="search" aria-label="Filter leads">
        <label>
          Classification
          <select name="classification">
            <option value="">Any</option>
            {CRM_CLASSIFICATIONS.map((v) => (
              <option value={v} selected={filters.classification === v}>
                {label(v)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Phase
          <select name="phase">
            <option value="">Any</option>
            {PHASES.map((v) => (
              <option value={v} selected={filters.phase === v}>
                {label(v)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Filter</button>
      </form>
      {/* On phones (stylesheet, under 40rem) a row is two lines: the name, then classification · phase · last activity. */}
      {leads.length === 0 ? (
        <p>No leads to show{filters.classification || filters.phase ? ' with these filters' : ''}.</p>
      ) : (
        <table class="leads">
          <caption>{`Page ${filters.page}, newest activity first`}</caption>
          <thead>
            <tr>
              <th scope="col">Lead</th>
              <th scope="col">Campaign</th>
              <th scope="col">Classification</th>
              <th scope="col">Phase</th>
              <th scope="col">Next action</th>
              <th scope="col">Last activity</th>
            </tr>
          </thead>
          <tbody>
            {leads.map((l: CrmLead) => (
              <tr data-lead-id={l.id}>
                <td data-label="Lead" class="col-lead">
                  <a href={`${base}/leads/${l.id}`}>{l.name ?? l.email}</a>
                  {l.name ? <div class="who">{l.email}</div> : null}
                </td>
                <td data-label="Campaign" class="col-campaign">{l.campaign.name}</td>
                <td data-label="Classification" class="col-class">{label(l.classification)}</td>
                <td data-label="Phase" class="col-phase">{label(l.phase)}</td>
                {l.next_action ? (
                  <td data-label="Next action" class="col-next">
                    <span class="date">{l.next_action.date}</span>
                    {`: ${l.next_action.note ?? ''}`}
                  </td>
                ) : (
                  <td data-label="Next action" class="col-next empty">—</td>
                )}
                <td data-label="Last activity" class="col-when date">{when(l.last_activity_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav class="pager" aria-label="Pages">
        {filters.page > 1 ? <a href={pageHref(base, filters, filters.page - 1)} rel="prev">Newer</a> : null}
        {hasMore ? <a href={pageHref(base, filters, filters.page + 1)} rel="next">Older</a> : null}
      </nav>
    </Layout>,
  );
}

// Mapping a table row to a pool lead: work email first, names split and joined, the company's domain, custom fields.
import { describe, expect, it } from 'vitest';
import { cleanEmail, isFreemail, mapRow } from '../../lib/pool/map_row';
import { inferType, normaliseKey } from '../../lib/pool/columns';

describe('mapRow', () => {
  it('picks the work email over a freemail one, whatever the column order', () => {
    const m = mapRow({ 'Personal Email': 'jane.doe@gmail.com', Email: 'Jane@Acme.com', first_name: 'Jane', last_name: 'Doe' });
    expect(m.lead.email).toBe('jane@acme.com');
    expect(m.lead.custom.personal_email).toBe('jane.doe@gmail.com');
    // A freemail address alone is still the email, it only ranks last.
    expect(mapRow({ email: 'x@gmail.com', work_email: 'x@beta.io' }).lead.email).toBe('x@beta.io');
    expect(mapRow({ email: 'x@gmail.com' }).lead.email).toBe('x@gmail.com');
    // Several addresses in one cell, and the list forms tables produce.
    expect(mapRow({ emails: 'a@yahoo.com; b@gamma.de' }).lead.email).toBe('b@gamma.de');
    expect(mapRow({ emails: ['a@hotmail.com', 'b@delta.co.uk'] }).lead.email).toBe('b@delta.co.uk');
    expect(mapRow({ email: 'Jane Doe <JANE@acme.com>' }).lead.email).toBe('jane@acme.com');
  });

  it('splits a full name and joins first and last', () => {
    const a = mapRow({ name: 'Jane van der Berg', company: 'Acme' }).lead;
    expect([a.firstName, a.lastName, a.fullName]).toEqual(['Jane', 'van der Berg', 'Jane van der Berg']);
    const b = mapRow({ 'Full Name': 'Doe, John', company: 'Acme' }).lead;
    expect([b.firstName, b.lastName, b.fullName]).toEqual(['John', 'Doe', 'John Doe']);
    const c = mapRow({ firstName: 'Ann', lastName: 'Lee', email: 'ann@x.io' }).lead;
    expect(c.fullName).toBe('Ann Lee');
  });

  it('takes the domain from the row, else the website host, else the work email (never a freemail domain)', () => {
    expect(mapRow({ email: 'a@mail.acme.com', domain: 'https://www.Acme.com/about' }).lead.domain).toBe('acme.com');
    expect(mapRow({ email: 'a@gmail.com', website: 'beta.io/contact' }).lead.domain).toBe('beta.io');
    expect(mapRow({ email: 'a@gamma.org' }).lead.domain).toBe('gamma.org');
    expect(mapRow({ email: 'a@gmail.com' }).lead.domain).toBeNull();
  });

  it('maps title, LinkedIn URLs, location; phone and other columns become custom fields', () => {
    const m = mapRow({
      email: 'a@acme.com',
      'Job Title': 'Head of Sales',
      'LinkedIn Profile': 'linkedin.com/in/jane',
      company_linkedin_url: 'https://linkedin.com/company/acme',
      Country: 'Germany',
      City: 'Berlin',
      Region: 'BE',
      Phone: '+49 30 1234',
      'Employee Count': 120,
      person: { seniority: 'director' },
    }).lead;
    expect(m).toMatchObject({ title: 'Head of Sales', linkedinUrl: 'https://linkedin.com/in/jane', companyLinkedinUrl: 'https://linkedin.com/company/acme', country: 'Germany', city: 'Berlin', state: 'BE' });
    expect(m.custom).toEqual({ phone: '+49 30 1234', employee_count: 120, person_seniority: 'director' });
  });

  it('never takes the email, its status, ids or the status from custom fields or status columns', () => {
    const m = mapRow({ email: 'a@acme.com', id: 'x', status: 'pushed', email_status: 'valid', custom: { email: 'evil@acme.com', status: 'replied', score: 3 } });
    expect(m.lead.email).toBe('a@acme.com');
    expect(m.lead.custom).toEqual({ score: 3 });
    expect(mapRow({ custom: { email: 'b@beta.io' }, name: 'B', company: 'Beta' }).lead.email).toBeNull();
  });

  it('reads enrichment fields a table already has, leaving out values that do not parse', () => {
    const m = mapRow({ email: 'a@acme.com', volume_estimate: 'High', hook: 'Raised a Series B', named_account: 'yes', monthly_volume: 'lots' }).lead;
    expect(m.enrich).toEqual({ volume_band: 'high', hook: 'Raised a Series B', named_account: true });
  });

  it('is invalid without an email and without a person and a company, or with an email that is no address', () => {
    expect(mapRow({ company: 'Acme' }).invalid).toMatch(/no email/);
    expect(mapRow({ name: 'Jane Doe' }).invalid).toMatch(/no email/);
    expect(mapRow({ email: 'not-an-address', name: 'Jane', company: 'Acme' }).invalid).toMatch(/not an email address/);
    const waiting = mapRow({ name: 'Jane Doe', company: 'Acme GmbH' });
    expect(waiting.invalid).toBeNull();
    expect(waiting.personKey).toBe('jane doe|acme gmbh');
    expect(mapRow({ name: 'Jane Doe', website: 'acme.com' }).personKey).toBe('jane doe|acme.com');
  });
});

describe('helpers', () => {
  it('cleans addresses and knows freemail', () => {
    expect(cleanEmail('mailto:A@B.COM.')).toBe('a@b.com');
    expect(cleanEmail('a@b')).toBeNull();
    expect(cleanEmail('a b@c.com')).toBeNull();
    expect(isFreemail('GMAIL.com')).toBe(true);
    expect(isFreemail('acme.com')).toBe(false);
  });

  it('normalises column keys to snake_case and infers column types', () => {
    expect(normaliseKey('Company Size')).toBe('company_size');
    expect(normaliseKey('companySize')).toBe('company_size');
    expect(normaliseKey('  Größe (m²) ')).toBe('grosse_m2');
    expect(normaliseKey('2024 revenue')).toBe('c_2024_revenue');
    expect(normaliseKey('***')).toBeNull();
    expect(inferType([1, '2,000', null])).toBe('number');
    expect(inferType(['yes', false])).toBe('boolean');
    expect(inferType(['https://a.com/x'])).toBe('url');
    expect(inferType(['12', 'abc'])).toBe('text');
  });
});

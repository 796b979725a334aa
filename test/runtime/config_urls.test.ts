// The public URLs links, cookies and CSRF origins are built from: a value that is no http(s) URL fails when the
// configuration loads, instead of failing every request (and every error answer) of a Worker later.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config';

describe('PUBLIC_BASE_URL and PORTAL_URL', () => {
  it('are refused at load unless they are http(s) URLs', () => {
    expect(() => loadConfig({ PORTAL_URL: 'portal.example.com' })).toThrow(/invalid configuration: PORTAL_URL/);
    expect(() => loadConfig({ PUBLIC_BASE_URL: 'ftp://files.example.com' })).toThrow(/invalid configuration: PUBLIC_BASE_URL/);
    const ok = loadConfig({ PUBLIC_BASE_URL: 'https://api.example.com/', PORTAL_URL: 'https://portal.example.com' });
    expect(ok.publicBaseUrl).toBe('https://api.example.com');
    expect(ok.portalUrl).toBe('https://portal.example.com');
  });
});

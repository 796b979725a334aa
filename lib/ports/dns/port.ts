// The DNS port: what an imported lead's domain says about its mail (MX → who hosts it, SPF → who sends for it).
// Production: DNS-over-HTTPS (Workers have no resolver API); embedded: a deterministic simulation by domain hash.

export type MailType = 'google_workspace' | 'microsoft_365' | 'other' | 'none';

export type MailScan = {
  domain: string;
  /** Who hosts the domain's mailboxes, from its MX records; `none` when it has no MX (it cannot receive mail). */
  mail_type: MailType;
  /** The sending tool or provider its SPF record names first (e.g. `google`, `outlook`, `sendgrid`), or null. */
  current_sender: string | null;
  mx: string[];
  spf: string | null;
  simulated?: true;
};

export interface DnsPort {
  readonly kind: 'sim' | 'doh';
  /**
   * Scans each distinct domain once (lower-cased input). A domain whose lookup failed is absent from the map:
   * an import never fails because DNS did; the lead just keeps no scan.
   */
  scan(domains: readonly string[]): Promise<Map<string, MailScan>>;
}

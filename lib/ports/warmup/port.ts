// The warm-up/health port: what each mailbox sent and bounced on a day, whether it is connected and whether its domain
// is listed. Embedded: a deterministic simulation (daily health curves; about 5 % of mailboxes failing in their second
// week of sending, by hash; `fail-` domains bounce 5 % of what they send and nothing while parked; overrides injected through the
// admin API). No production adapter yet: README "Sending infrastructure" names the candidates.
import type { PortDeps } from '../registrar/port';

export type HealthInput = {
  mailbox_id: string;
  address: string;
  domain: string;
  /** Days since the mailbox was created (1 on its first day). */
  age_days: number;
  /** Days since it began sending to prospects (its ramp's day 1 = 1); 0 while warming, a reserve or parked. */
  sending_day: number;
  /** What it was allowed to send that day (0 while warming: warm-up mail only; 0 while parked). */
  cap: number;
  parked: boolean;
};

export type HealthDay = { mailbox_id: string; sent: number; bounced: number; connected: boolean; domain_listed: boolean };

export interface WarmupHealth {
  readonly kind: 'sim';
  /** One answer per input, in order, for one day (YYYY-MM-DD); deterministic for the same inputs. */
  health(deps: PortDeps, orgId: string, day: string, inputs: HealthInput[]): Promise<HealthDay[]>;
}

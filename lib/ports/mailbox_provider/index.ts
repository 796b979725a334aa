import type { Config } from '../../config';
import { createGoogleMailboxProvider } from './google';
import type { MailboxProvider } from './port';
import { createSimMailboxProvider } from './sim';

/** The mailbox provider MAILBOX_PROVIDER names: `sim` (default; rows in sim_mailboxes) or `google` (needs a token). */
export function createMailboxProvider(config: Config): MailboxProvider {
  if (config.MAILBOX_PROVIDER === 'google') {
    // Refused at start: without a token every create_mailboxes step would fail.
    if (!config.GOOGLE_WORKSPACE_TOKEN) throw new Error('invalid configuration: MAILBOX_PROVIDER=google needs GOOGLE_WORKSPACE_TOKEN');
    return createGoogleMailboxProvider({ token: config.GOOGLE_WORKSPACE_TOKEN, customer: config.GOOGLE_WORKSPACE_CUSTOMER, baseUrl: config.GOOGLE_DIRECTORY_API_URL });
  }
  return createSimMailboxProvider(config.SIM_SEED);
}

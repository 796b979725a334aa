import type { Config } from '../config';

/** The review desk's public URL: {PUBLIC_BASE_URL}/desk (its sign-in links point here). */
export const deskUrl = (config: Config) => `${config.publicBaseUrl}/desk`;

/** A path for the logs: a sign-in link's token is a credential for 15 minutes and never goes there. */
export const withoutSignInToken = (path: string) => path.replace(/\/sign-in\/[^/]+/, '/sign-in/[token]');

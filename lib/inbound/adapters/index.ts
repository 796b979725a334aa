// One adapter per sending tool; an inbound source's `provider` chooses it. The record's type makes adding a
// provider to InboundProvider without an adapter a compile error.
import type { InboundAdapter, InboundProvider } from '../types';
import { emailbisonAdapter } from './emailbison';
import { genericAdapter } from './generic';
import { instantlyAdapter } from './instantly';
import { smartleadAdapter } from './smartlead';

const adapters: Record<InboundProvider, InboundAdapter> = {
  instantly: instantlyAdapter,
  smartlead: smartleadAdapter,
  emailbison: emailbisonAdapter,
  generic: genericAdapter,
};

/** Every provider an inbound source can be created for (the order the docs list them in). */
export const INBOUND_PROVIDERS = Object.keys(adapters) as readonly InboundProvider[];

export function isInboundProvider(value: string): value is InboundProvider {
  return Object.hasOwn(adapters, value);
}

export function adapterFor(provider: InboundProvider): InboundAdapter {
  return adapters[provider];
}

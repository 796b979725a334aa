// Node-only adapter (the one place under lib/ allowed a `node:` import).
//
// It uses getaddrinfo via dns.lookup, the same path Node's fetch (undici) uses
// to connect, so /etc/hosts entries are seen exactly as the real request would
// see them. Workers have no DNS API: there the caller passes no resolver,
// checkOutboundUrl judges the literal host only, and Cloudflare's egress
// refuses to connect to private/internal targets anyway.
import { lookup } from 'node:dns/promises';
import type { Resolver } from './ssrf';

export const nodeResolver: Resolver = async (host) => {
  // all: every answer is checked, since the connecting client may pick any of them.
  const answers = await lookup(host, { all: true });
  return answers.map((a) => a.address);
};

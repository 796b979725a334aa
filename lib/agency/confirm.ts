// Two-step confirm (agency-operator.md §3), one mechanism for every two-step tool.
//
// Step 1 (no confirm_token) reads the state, changes nothing, and stores a token row bound to the key, the tool,
// the canonical arguments and a hash of the state it read. Step 2 (same arguments + confirm_token) opens ONE
// transaction: it locks the token row (so of N concurrent confirms one proceeds and the rest then see it used),
// checks binding, use and expiry, reads the state again, compares its hash, marks the token used, applies the
// change, writes the audit row and charges the credits. Any refusal rolls all of it back.
import { eq, sql } from 'drizzle-orm';
import { confirmTokens } from '../../schema';
import { randomToken, sha256Hex } from '../crypto/secrets';
import type { Db } from '../db/types';
import { ApiError, type ErrorCode } from '../errors';
import { chargeCredits, dailyRoomOf } from '../credits/ledger';
import { writeAudit } from './audit';
import { canonicalJson } from './canonical';
import type { AgencyCall } from './operation';

export const CONFIRM_TTL_MS = 15 * 60 * 1000;

/** What the preview step of a tool read: shown to the caller, hashed for staleness, priced. */
export type Preview<P> = {
  preview: P;
  /** The state the change depends on; if it differs at confirm time the confirm is `preview_stale`. */
  state: unknown;
  credits: number;
  /** A preview that cannot be confirmed names the error a confirm would get. */
  blockedBy?: ErrorCode;
  blockedMessage?: string;
};

export type Applied<R> = { result: R; audit: { action?: string; target: string | null; detail?: Record<string, unknown> } };

export type TwoStepDef<I, P, R> = {
  tool: string;
  /** Reads the state; `db` is the confirm transaction in step 2, so rows it locks stay locked until commit. */
  preview: (call: AgencyCall, input: I, db: Db) => Promise<Preview<P>>;
  apply: (call: AgencyCall, input: I, tx: Db, preview: Preview<P>) => Promise<Applied<R>>;
};

export type PreviewAnswer<P> = {
  preview: P;
  confirm_token: string | null;
  expires_at: string | null;
  credits: number;
  blocked_by?: ErrorCode;
};

const argsOf = (input: Record<string, unknown>) => {
  const { confirm_token: _, ...rest } = input;
  return canonicalJson(rest);
};

/** Runs a two-step tool: a preview answer without `confirm_token`, else the confirmed change's result. */
export async function runTwoStep<I extends Record<string, unknown> & { confirm_token?: string | null }, P, R>(
  call: AgencyCall,
  def: TwoStepDef<I, P, R>,
  input: I,
): Promise<{ confirmed: false; answer: PreviewAnswer<P> } | { confirmed: true; result: R }> {
  if (!input.confirm_token) return { confirmed: false, answer: await issuePreview(call, def, input) };
  const outcome = await confirmOnce(call, def, input, input.confirm_token);
  if (outcome.stale) {
    // Issued outside the refused transaction, so the fresh token survives the refusal.
    const fresh = await issuePreview(call, def, input);
    throw new ApiError('preview_stale', 'the state changed since the preview; review the fresh preview and confirm with its token', { body: { ...fresh } });
  }
  return { confirmed: true, result: outcome.result as R };
}

async function issuePreview<I extends Record<string, unknown>, P, R>(call: AgencyCall, def: TwoStepDef<I, P, R>, input: I): Promise<PreviewAnswer<P>> {
  const p = await def.preview(call, input, call.services.db);
  if (p.blockedBy) return { preview: p.preview, confirm_token: null, expires_at: null, credits: p.credits, blocked_by: p.blockedBy };
  // A token the key's daily credit limit would refuse at confirm time is not worth issuing: say so now.
  if (p.credits > 0 && (await dailyRoomOf(call.services.db, { keyId: call.auth.keyId, dailyCreditLimit: call.auth.dailyCreditLimit }, call.now)) < p.credits) {
    return { preview: p.preview, confirm_token: null, expires_at: null, credits: p.credits, blocked_by: 'daily_credit_limit_exceeded' };
  }
  const token = `ct_${randomToken(24)}`;
  const expiresAt = new Date(call.now.getTime() + CONFIRM_TTL_MS);
  await call.services.db.insert(confirmTokens).values({
    tokenHash: await sha256Hex(token),
    orgId: call.auth.orgId,
    keyId: call.auth.keyId,
    tool: def.tool,
    argsHash: await sha256Hex(argsOf(input)),
    stateHash: await sha256Hex(canonicalJson(p.state)),
    credits: p.credits,
    expiresAt,
    createdAt: call.now,
  });
  return { preview: p.preview, confirm_token: token, expires_at: expiresAt.toISOString(), credits: p.credits };
}

async function confirmOnce<I extends Record<string, unknown>, P, R>(call: AgencyCall, def: TwoStepDef<I, P, R>, input: I, token: string) {
  const tokenHash = await sha256Hex(token);
  const argsHash = await sha256Hex(argsOf(input));
  return call.services.db.transaction(async (tx) => {
    const [row] = await tx.select().from(confirmTokens).where(eq(confirmTokens.tokenHash, tokenHash)).for('update');
    if (!row || row.keyId !== call.auth.keyId || row.orgId !== call.auth.orgId) {
      throw new ApiError('confirm_token_invalid', 'confirm_token: unknown, or issued to another key');
    }
    if (row.tool !== def.tool) throw new ApiError('confirm_token_invalid', `confirm_token: issued for ${row.tool}, not ${def.tool}`);
    if (row.argsHash !== argsHash) throw new ApiError('confirm_token_invalid', 'confirm_token: issued for other arguments; confirm with exactly the arguments of the preview');
    if (row.usedAt) throw new ApiError('confirm_token_used', 'confirm_token: already used; ask for a new preview');
    if (row.expiresAt.getTime() <= call.now.getTime()) throw new ApiError('confirm_token_expired', 'confirm_token: expired (tokens last 15 minutes); ask for a new preview');
    const p = await def.preview(call, input, tx);
    if ((await sha256Hex(canonicalJson(p.state))) !== row.stateHash) return { stale: true as const };
    if (p.blockedBy) throw new ApiError(p.blockedBy, p.blockedMessage ?? `${def.tool} cannot be confirmed: ${p.blockedBy}`);
    await tx.execute(sql`UPDATE confirm_tokens SET used_at = ${call.now.toISOString()}::timestamptz WHERE token_hash = ${tokenHash}`);
    const applied = await def.apply(call, input, tx, p);
    if (p.credits > 0) {
      await chargeCredits(tx, {
        orgId: call.auth.orgId,
        key: { keyId: call.auth.keyId, dailyCreditLimit: call.auth.dailyCreditLimit },
        reference: `${def.tool}:${tokenHash.slice(0, 32)}`,
        amount: p.credits,
        reason: def.tool,
        now: call.now,
      });
    }
    await writeAudit(tx, {
      orgId: call.auth.orgId,
      actor: call.actor,
      action: applied.audit.action ?? def.tool,
      target: applied.audit.target,
      detail: applied.audit.detail,
      credits: p.credits,
      at: call.now,
    });
    return { stale: false as const, result: applied.result };
  });
}

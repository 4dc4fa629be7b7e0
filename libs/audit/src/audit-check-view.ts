import { GENESIS_HASH } from '#libs/audit-chain';
import type { AuditCheckState } from './audit-check.repository.js';
import { LogTreeBuilder } from './log-tree-builder.js';

// What the server-side check (AuditChainCheck) answers about an account, made from its stored state.

export type Chain = 'logs' | 'receipts';

/** Something the check found broken: in which chain, at which seq (null: not one link), and which rule. */
export interface Finding {
  chain: Chain;
  seq: string | null;
  reason: string;
}

export interface AuditCheckView {
  accountId: string;
  /** Nothing found broken (since a whole re-verification passed, if something was). */
  ok: boolean;
  checkedAt: string | null;
  /** The last run got to both heads it read together. */
  complete: boolean;
  /**
   * When the run under way elsewhere (a worker's, another request's) started; null when none holds the account. The
   * other fields are then the last completed run's result, as of `checkedAt`.
   */
  runningSince: string | null;
  logs: LogChainCheckView;
  receipts: ChainCheckView;
  broken: (Finding & { since: string }) | null;
}

export interface ChainCheckView {
  /** Verified from the chain's start up to this link (the frontier). */
  verifiedSeq: string;
  verifiedHash: string;
  /** When the re-verification of the older links last ended a pass (up to the frontier as it was at its start) with nothing broken. */
  sweptAt: string | null;
}

export interface LogChainCheckView extends ChainCheckView {
  /** Root of the Merkle tree (RFC 9162) of the logs up to the frontier, base64: what a checkpoint of that size signs. */
  treeRoot: string;
}

/** A run that takes longer than this loses the account to the next one (its result is then not saved). */
export const LEASE_MS = 10 * 60_000;

export function toView(state: AuditCheckState): AuditCheckView {
  // The lease is taken for LEASE_MS from the run's start; one that ran out is a run that died.
  const lease = state.leaseUntil?.getTime();
  const running = lease !== undefined && lease > Date.now() ? new Date(lease - LEASE_MS).toISOString() : null;
  const chain = (seq: bigint | undefined, hash: string | undefined, swept: Date | null | undefined): ChainCheckView => ({
    verifiedSeq: (seq ?? 0n).toString(),
    verifiedHash: hash ?? GENESIS_HASH,
    sweptAt: swept?.toISOString() ?? null,
  });
  return {
    accountId: state.accountId,
    ok: !state.brokenReason,
    checkedAt: state.checkedAt?.toISOString() ?? null,
    complete: state.complete ?? false,
    runningSince: running,
    logs: { ...chain(state.logSeq, state.logHash, state.logSweptAt), treeRoot: treeRootOf(state) },
    receipts: chain(state.receiptSeq, state.receiptHash, state.receiptSweptAt),
    broken: state.brokenReason
      ? { chain: state.brokenChain as Chain, seq: state.brokenSeq?.toString() ?? null, reason: state.brokenReason, since: state.brokenSince!.toISOString() }
      : null,
  };
}

/** The root of the tree the state holds, base64; a state that does not fit its size has none yet (the empty tree's). */
function treeRootOf(state: AuditCheckState): string {
  try {
    return LogTreeBuilder.resume(state.logTree ?? Buffer.alloc(0), state.logSeq ?? 0n)
      .root()
      .toString('base64');
  } catch {
    return LogTreeBuilder.empty().root().toString('base64');
  }
}

import { setImmediate as turn } from 'node:timers/promises';
import { Injectable, Logger } from '@nestjs/common';
import { canonicalLog, canonicalReceipt, ChainWalker, GENESIS_HASH, statusAgrees } from '#libs/audit-chain';
import { AuditCheckRepository, type AuditCheckState, type AuditCheckUpdate } from './audit-check.repository.js';
import { AuditCheckpointRepository } from './audit-checkpoint.repository.js';
import { MerkleArgumentError } from '#libs/merkle-tree';
import { AuditTreeRepository } from './audit-tree.repository.js';
import { type AuditCheckView, type Chain, type Finding, LEASE_MS, toView } from './audit-check-view.js';
import { LogTreeBuilder } from './log-tree-builder.js';
import { countChain } from './chain-count.js';
import { type CheckBudget, FULL_RUN, periodicBudget } from './check-budget.js';
import { acceptedLog, AuditRows, type ChainHeads, type Link, type LogRow, type ReceiptRow, uploadReceipt } from '#libs/ai-log';

/** One link to verify: its text as hashed, and any other rule it broke (a log's status against its receipts). */
interface LinkToCheck {
  seq: string;
  prevHash: string;
  hash: string;
  canonical: string;
  problem?: string;
}

/** Where a sweep got to, where its pass ends, whether the pass ended at this run, and what it found. */
interface Sweep {
  reached: Link;
  end: { seq: bigint; hash: string };
  done: boolean;
  finding?: Finding;
}

/** Before seq 1: where a chain, a sweep or a walk starts. */
const GENESIS: Link = { seq: '0', hash: GENESIS_HASH };

/** Both sweeps back at seq 1, each pass to end at the frontier the next run reads (a finding starts them again). */
const NEW_PASS = {
  sweepLogSeq: 0n,
  sweepLogHash: GENESIS_HASH,
  sweepReceiptSeq: 0n,
  sweepReceiptHash: GENESIS_HASH,
  sweepLogEndSeq: 0n,
  sweepLogEndHash: GENESIS_HASH,
  sweepReceiptEndSeq: 0n,
  sweepReceiptEndHash: GENESIS_HASH,
};

const PAGE = 1_000;
/**
 * Links verified between two turns of the event loop. A page is tens of milliseconds of CPU, and the check runs in the
 * upload worker: verified a page at a time, it held each upload's every step that long, and the drain fell to 1-3
 * uploads/s while a long check ran (bench scenario 9).
 */
const LINKS_PER_TURN = 50;
const NOUNS = {
  logs: { item: 'log', changed: 'the log was changed after it was accepted' },
  receipts: { item: 'receipt', changed: 'the receipt, or the log it names, was changed after it was recorded' },
};

/**
 * The server's own check of an account's stored chains, incremental so that it keeps up with chains of millions of
 * links. Each run:
 * - counts the rows (no log or attempt outside its chain, none beyond its head, none missing below the frontier: a
 *   range a run, round from seq 1; see countChain);
 * - verifies each chain from its frontier (how far it is verified from seq 1) towards the heads it read, each log's
 *   status against its last receipt, and every stored checkpoint in the range against the chain;
 * - re-verifies a slice of the older links (the sweep, from seq 1 to where the frontier was when the pass started, and
 *   round again), so that a row changed in place long after it was checked is found by the next pass at the latest.
 * A finding marks the account broken and starts the sweep again; it is cleared once both sweeps pass it cleanly.
 */
@Injectable()
export class AuditChainCheck {
  private readonly logger = new Logger(AuditChainCheck.name);

  constructor(
    private readonly rows: AuditRows,
    private readonly checks: AuditCheckRepository,
    private readonly checkpoints: AuditCheckpointRepository,
    private readonly tree: AuditTreeRepository,
  ) {}

  /**
   * Checks the account one run further. While another run holds it, answers at once with the last completed result and
   * when the run under way started (`runningSince`); with `waitMs` (a checkpoint, which signs what a run verified) it
   * first waits up to that long for the other run to end. With `linksPerMinute` (the worker's periodic runs) it does
   * that many new links per chain for the time since the account's last run (periodicBudget), else a full run.
   */
  async run(accountId: string, { waitMs = 0, linksPerMinute }: { waitMs?: number; linksPerMinute?: number } = {}): Promise<AuditCheckView> {
    const deadline = Date.now() + waitMs;
    let now = new Date();
    let lease = new Date(now.getTime() + LEASE_MS);
    let state = await this.checks.lease(accountId, lease, now);
    while (!state && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      now = new Date();
      lease = new Date(now.getTime() + LEASE_MS);
      state = await this.checks.lease(accountId, lease, now);
    }
    if (!state) return this.view(accountId);
    try {
      const budget = linksPerMinute && state.checkedAt ? periodicBudget(now.getTime() - state.checkedAt.getTime(), linksPerMinute) : FULL_RUN;
      const update = await this.step(state, budget);
      await this.checks.save(accountId, lease, update);
      if (update.brokenReason && update.brokenSince?.getTime() === update.checkedAt?.getTime()) {
        this.logger.warn(`audit chain of account ${accountId} is broken: ${update.brokenChain} seq ${update.brokenSeq ?? '-'}: ${update.brokenReason}`);
      }
      return toView({ ...state, ...update, leaseUntil: null });
    } catch (error) {
      await this.checks.release(accountId, lease);
      throw error;
    }
  }

  /** The last completed run's result, and whether a run holds the account now. */
  async view(accountId: string): Promise<AuditCheckView> {
    const state = await this.checks.find(accountId);
    return state ? toView(state) : toView({ accountId } as AuditCheckState);
  }

  private async step(state: AuditCheckState, budget: CheckBudget): Promise<AuditCheckUpdate> {
    const { accountId } = state;
    // Counted before the heads are read: every row counted was committed with a head the read then sees.
    const countedLogs = await countChain(this.rows, 'logs', accountId, { cursor: state.countLogSeq, frontier: state.logSeq, size: budget.count });
    const countedReceipts = await countChain(this.rows, 'receipts', accountId, {
      cursor: state.countReceiptSeq,
      frontier: state.receiptSeq,
      size: budget.count,
    });
    const counted = { finding: countedLogs.finding ?? countedReceipts.finding, lastLog: countedLogs.last, lastReceipt: countedReceipts.last };
    const heads = await this.rows.heads(accountId);
    const beyond = counted.finding ? undefined : (beyondHead('logs', counted.lastLog, heads) ?? beyondHead('receipts', counted.lastReceipt, heads));
    const { tree, from, finding: treeFinding } = resumeTree(state);
    const logs = treeFinding ? { reached: from } : await this.walk('logs', accountId, from, BigInt(heads.logs.seq), budget.frontier, tree);
    const receipts = await this.walk(
      'receipts',
      accountId,
      { seq: state.receiptSeq.toString(), hash: state.receiptHash },
      BigInt(heads.receipts.seq),
      budget.frontier,
    );
    const sweepLogs = await this.sweep('logs', state, budget.sweep);
    const sweepReceipts = await this.sweep('receipts', state, budget.sweep);
    const finding =
      treeFinding ??
      counted.finding ??
      beyond ??
      logs.finding ??
      headDisagrees('logs', logs.reached, heads) ??
      receipts.finding ??
      headDisagrees('receipts', receipts.reached, heads) ??
      sweepLogs.finding ??
      sweepReceipts.finding;

    const now = new Date();
    const update: AuditCheckUpdate = {
      logSeq: BigInt(logs.reached.seq),
      logHash: logs.reached.hash,
      logTree: new Uint8Array(tree.serialized()),
      receiptSeq: BigInt(receipts.reached.seq),
      receiptHash: receipts.reached.hash,
      sweepLogSeq: BigInt(sweepLogs.reached.seq),
      sweepLogHash: sweepLogs.reached.hash,
      sweepReceiptSeq: BigInt(sweepReceipts.reached.seq),
      sweepReceiptHash: sweepReceipts.reached.hash,
      sweepLogEndSeq: sweepLogs.end.seq,
      sweepLogEndHash: sweepLogs.end.hash,
      sweepReceiptEndSeq: sweepReceipts.end.seq,
      sweepReceiptEndHash: sweepReceipts.end.hash,
      countLogSeq: countedLogs.next,
      countReceiptSeq: countedReceipts.next,
      logSweptAt: sweepLogs.done ? now : state.logSweptAt,
      receiptSweptAt: sweepReceipts.done ? now : state.receiptSweptAt,
      complete: !finding && logs.reached.seq === heads.logs.seq && receipts.reached.seq === heads.receipts.seq,
      brokenChain: state.brokenChain,
      brokenSeq: state.brokenSeq,
      brokenReason: state.brokenReason,
      brokenSince: state.brokenSince,
      checkedAt: now,
    };
    if (finding) {
      const same = state.brokenChain === finding.chain && state.brokenSeq?.toString() === (finding.seq ?? undefined) && state.brokenReason === finding.reason;
      // A finding starts the sweep again: the account is only clear once everything was re-verified after it.
      Object.assign(update, {
        brokenChain: finding.chain,
        brokenSeq: finding.seq === null ? null : BigInt(finding.seq),
        brokenReason: finding.reason,
        brokenSince: same ? state.brokenSince : now,
        ...NEW_PASS,
        logSweptAt: null,
        receiptSweptAt: null,
      });
    } else if (
      update.brokenSince &&
      update.logSweptAt &&
      update.receiptSweptAt &&
      update.logSweptAt > update.brokenSince &&
      update.receiptSweptAt > update.brokenSince
    ) {
      Object.assign(update, { brokenChain: null, brokenSeq: null, brokenReason: null, brokenSince: null });
    }
    return update;
  }

  /**
   * Verifies a chain from `from` (a link verified earlier) towards seq `to`, at most `budget` links. Answers how far it
   * got, and the first rule broken on the way. With `tree`, each verified log is appended to it, and its leaves are
   * stored page by page, before the frontier that covers them is saved.
   */
  private async walk(
    chain: Chain,
    accountId: string,
    from: Link,
    to: bigint,
    budget: number,
    tree?: LogTreeBuilder,
  ): Promise<{ reached: Link; finding?: Finding }> {
    const walker = new ChainWalker(NOUNS[chain]);
    walker.checkpoint(BigInt(from.seq), from.hash, true);
    let reached = from;
    let finding: Finding | undefined;
    for (let walked = 0; !finding && BigInt(reached.seq) < to && walked < budget;) {
      const after = BigInt(reached.seq);
      const page = await this.page(chain, accountId, after, to, Math.min(PAGE, budget - walked));
      if (page.length === 0) {
        const reason = `seq ${after + 1n}..${to} ${chain === 'logs' ? 'logs' : 'receipts'} are missing: the head is at seq ${to}`;
        return { reached, finding: { chain, seq: String(after + 1n), reason } };
      }
      const stated = await this.checkpoints.list(accountId, chain, after + 1n, BigInt(page.at(-1)!.seq!));
      for (const [i, row] of page.entries()) {
        if (i % LINKS_PER_TURN === LINKS_PER_TURN - 1) await turn();
        // Made link by link: only the page's rows are held, never their parsed and canonical forms all at once.
        const link = toLink(chain, row);
        const reason = walker.link(BigInt(link.seq), link.prevHash, link.hash, link.canonical) ?? link.problem ?? checkpointDisagrees(chain, stated, link);
        if (reason) {
          finding = { chain, seq: link.seq, reason };
          break;
        }
        reached = { seq: link.seq, hash: link.hash };
        tree?.add(link.canonical);
      }
      if (tree) await this.tree.store(accountId, tree.take());
      walked += page.length;
    }
    return { reached, finding };
  }

  /**
   * Re-verifies the next slice of older links, towards the end of its pass: the frontier when the pass started, kept
   * so that a pass ends even while the chain grows faster than the sweep. There the pass is done and starts again.
   */
  private async sweep(chain: Chain, state: AuditCheckState, budget: number): Promise<Sweep> {
    const [from, stored, frontier] =
      chain === 'logs'
        ? [
            { seq: state.sweepLogSeq, hash: state.sweepLogHash },
            { seq: state.sweepLogEndSeq, hash: state.sweepLogEndHash },
            { seq: state.logSeq, hash: state.logHash },
          ]
        : [
            { seq: state.sweepReceiptSeq, hash: state.sweepReceiptHash },
            { seq: state.sweepReceiptEndSeq, hash: state.sweepReceiptEndHash },
            { seq: state.receiptSeq, hash: state.receiptHash },
          ];
    // A stored pass that does not fit the frontier (state changed outside the gateway) starts again: never ends early.
    const end = stored.seq > 0n && stored.seq <= frontier.seq ? stored : frontier;
    const start = from.seq <= end.seq ? { seq: from.seq.toString(), hash: from.hash } : GENESIS;
    const { reached, finding } = await this.walk(chain, state.accountId, start, end.seq, budget);
    if (finding || BigInt(reached.seq) < end.seq) return { reached, end, done: false, finding };
    if (reached.hash !== end.hash) {
      return {
        reached,
        end,
        done: false,
        finding: { chain, seq: reached.seq, reason: `the ${chain} up to seq ${reached.seq} no longer end in the hash verified earlier: they were rewritten` },
      };
    }
    return { reached: GENESIS, end: { seq: 0n, hash: GENESIS_HASH }, done: true };
  }

  private page(chain: Chain, accountId: string, after: bigint, to: bigint, limit: number): Promise<Array<LogRow | ReceiptRow>> {
    return chain === 'logs' ? this.rows.logs(accountId, after, to, limit) : this.rows.receipts(accountId, after, to, limit);
  }
}

/** A stored row as a link to verify: its text as hashed, and, for a log, its status against its last receipt. */
function toLink(chain: Chain, row: LogRow | ReceiptRow): LinkToCheck {
  if (chain === 'receipts') {
    const receipt = row as ReceiptRow;
    return { seq: receipt.seq, prevHash: receipt.prev_hash ?? '', hash: receipt.hash ?? '', canonical: canonicalReceipt(uploadReceipt(receipt)) };
  }
  const log = row as LogRow;
  return {
    seq: log.seq!,
    prevHash: log.prev_hash ?? '',
    hash: log.hash ?? '',
    canonical: canonicalLog(acceptedLog(log)),
    problem: statusAgrees(log.status, log.receipt_status)
      ? undefined
      : `the log is ${log.status}, but its last receipt${log.receipt_seq ? ` (seq ${log.receipt_seq})` : ''} says ${log.receipt_status ?? 'nothing'}: its status was changed outside the gateway`,
  };
}

/** A row counted (before the heads were read) with a seq past its head: it was not appended through the gateway. */
function beyondHead(chain: Chain, last: string | null, heads: ChainHeads): Finding | undefined {
  const head = chain === 'logs' ? heads.logs : heads.receipts;
  if (last === null || BigInt(last) <= BigInt(head.seq)) return undefined;
  return {
    chain,
    seq: last,
    reason: `${chain === 'logs' ? 'a log' : 'a receipt'} at seq ${last} is beyond the chain's head (seq ${head.seq}): it was not appended through the gateway`,
  };
}

/** The head (audit_heads, audit_receipt_heads) must not be behind the frontier, and at it must name the same hash. */
function headDisagrees(chain: Chain, reached: Link, heads: ChainHeads): Finding | undefined {
  const head = chain === 'logs' ? heads.logs : heads.receipts;
  if (BigInt(head.seq) < BigInt(reached.seq))
    return { chain, seq: head.seq, reason: `the head is at seq ${head.seq}, behind seq ${reached.seq} verified earlier: it was moved back` };
  if (reached.seq !== head.seq || reached.hash === head.hash) return undefined;
  return {
    chain,
    seq: head.seq,
    reason: `the head states hash ${head.hash} at seq ${head.seq}, but the link verified there has ${reached.hash}: the ${chain} were rewritten`,
  };
}

function checkpointDisagrees(
  chain: Chain,
  stated: Array<{ seq: string; hash: string; receiptSeq?: string; receiptHash?: string }>,
  link: LinkToCheck,
): string | undefined {
  for (const c of stated) {
    const [seq, hash] = chain === 'logs' ? [c.seq, c.hash] : [c.receiptSeq, c.receiptHash];
    if (seq === link.seq && hash !== link.hash) return `the checkpoint signed at seq ${seq} states hash ${hash}, which is not the chain's`;
  }
  return undefined;
}

/**
 * The log tree where the frontier is. Stored state that does not fit its size (changed outside the gateway) is a
 * finding, and the frontier and its tree start again from seq 1.
 */
function resumeTree(state: AuditCheckState): { tree: LogTreeBuilder; from: Link; finding?: Finding } {
  const from = { seq: state.logSeq.toString(), hash: state.logHash };
  try {
    return { tree: LogTreeBuilder.resume(state.logTree, state.logSeq), from };
  } catch (error) {
    if (!(error instanceof MerkleArgumentError)) throw error;
    const reason = `the check's stored log tree does not fit its frontier at seq ${state.logSeq} (${error.message}): it was changed outside the gateway; the logs are verified again from seq 1`;
    return { tree: LogTreeBuilder.empty(), from: GENESIS, finding: { chain: 'logs', seq: null, reason } };
  }
}

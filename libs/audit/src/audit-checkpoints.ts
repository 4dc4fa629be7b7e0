import { Injectable } from '@nestjs/common';
import { GatewayConfig } from '#libs/config';
import { formatCheckpoint, keyLabel, parseNote, signNote } from '#libs/signed-note';
import { type CheckpointStatement, keyIdOf, signCheckpoint } from '#libs/audit-chain';
import { AuditChainCheck } from './audit-chain-check.js';
import type { AuditCheckView, Finding } from './audit-check-view.js';
import { AuditCheckpointRepository, type CheckpointView } from './audit-checkpoint.repository.js';
import { AuditRows, type ChainHeads, type Link } from '#libs/ai-log';
import { AuditSigner } from './audit-signer.js';
import { AuditWitnessRepository, type WitnessOutcome } from './witnesses/audit-witness.repository.js';
import { AuditWitnesses } from './witnesses/audit-witnesses.js';

export interface ChainHead {
  seq: string;
  hash: string;
  /** When the head last moved (the last append). */
  at: string;
  /** The head of the receipt chain (one link per upload attempt). */
  receipts: Link;
  /** The first and last log the table holds now: a head whose rows are gone shows here at once. */
  stored: { firstSeq: string | null; lastSeq: string | null; lastHash: string | null };
  /** The stored chain's verified state: the server's check, and the ends of the table compared with the head. */
  check: { ok: boolean; checkedAt: string | null; verifiedSeq: string; broken: (Finding & { since?: string }) | null };
  /** Each configured witness (AUDIT_WITNESSES) and what it last did with this account's checkpoints. */
  witnesses: WitnessView[];
}

export interface WitnessView {
  /** Its key, `<name>+<hex key id>`. */
  witness: string;
  /** The largest tree it cosigned for this account (0: none yet), and when. */
  cosignedSize: string;
  /** Whether the latest checkpoint carries its cosignature (false until it is sent one; a worker retries within a minute). */
  cosignedLatest: boolean;
  cosignedAt: string | null;
  /** The last request: `cosigned`, `refused` (it holds a tree this one does not extend: investigate), `unreachable`; null before the first. */
  outcome: WitnessOutcome | null;
  error: string | null;
  attemptedAt: string | null;
}

/** The checkpoint extension line that states the receipt chain's head: `receipt-chain <seq> <hex hash>`. */
export const RECEIPTS_EXTENSION = 'receipt-chain';

/** How long a checkpoint asked for now waits for a run of the check under way (the worker's) to end: it signs what a run verified. */
export const ON_DEMAND_WAIT_MS = 15_000;

/** What signing a checkpoint came to: the new checkpoint (if any) and the check it was made after. */
export interface CheckpointResult {
  made?: CheckpointView;
  check: AuditCheckView;
}

/** The chains' heads and their signed checkpoints. */
@Injectable()
export class AuditCheckpoints {
  constructor(
    private readonly rows: AuditRows,
    private readonly checkpoints: AuditCheckpointRepository,
    private readonly check: AuditChainCheck,
    private readonly signer: AuditSigner,
    private readonly config: GatewayConfig,
    private readonly witnesses: AuditWitnesses,
    private readonly witnessStates: AuditWitnessRepository,
  ) {}

  async head(accountId: string): Promise<ChainHead> {
    const [heads, check, witnesses] = await Promise.all([this.rows.heads(accountId), this.check.view(accountId), this.witnessViews(accountId)]);
    const { logs, stored } = heads;
    const broken = endsDisagree(heads) ?? check.broken;
    return {
      seq: logs.seq,
      hash: logs.hash,
      at: (logs.at ?? new Date(0)).toISOString(),
      receipts: heads.receipts,
      stored: { firstSeq: stored.first, lastSeq: stored.last?.seq ?? null, lastHash: stored.last?.hash ?? null },
      check: { ok: !broken, checkedAt: check.checkedAt, verifiedSeq: check.logs.verifiedSeq, broken },
      witnesses,
    };
  }

  private async witnessViews(accountId: string): Promise<WitnessView[]> {
    const [rows, latest] = await Promise.all([this.witnessStates.list(accountId), this.checkpoints.latestNote(accountId)]);
    const states = new Map(rows.map((s) => [s.witness, s]));
    const present = latest ? cosigners(latest.note) : new Set<string>();
    return this.witnesses.configured.map(({ label }) => {
      const s = states.get(label);
      return {
        witness: label,
        cosignedSize: (s?.cosignedSize ?? 0n).toString(),
        cosignedLatest: present.has(label),
        cosignedAt: s?.cosignedAt?.toISOString() ?? null,
        outcome: (s?.outcome as WitnessOutcome | undefined) ?? null,
        error: s?.error ?? null,
        attemptedAt: s?.attemptedAt?.toISOString() ?? null,
      };
    });
  }

  /**
   * Runs the check, then signs both chains' verified frontiers, unless the chain is broken, the run did not get to the
   * heads, or the last checkpoint already states them. The time is taken after the check read the heads, so that every
   * log a checkpoint covers was received before its `at` (what anchors an export window).
   */
  async checkpoint(accountId: string): Promise<CheckpointResult> {
    const key = this.signer.privateKey();
    const check = await this.check.run(accountId, { waitMs: ON_DEMAND_WAIT_MS });
    if (!key || !check.ok || !check.complete || check.logs.verifiedSeq === '0') return { check };
    const { logs, receipts } = check;
    const [last, latest] = await Promise.all([this.checkpoints.last(accountId), this.checkpoints.latestNote(accountId)]);
    // Signed already, unless only a checkpoint from before the tree states these heads.
    if (last && last.seq === logs.verifiedSeq && last.receiptSeq === receipts.verifiedSeq && latest?.size === BigInt(logs.verifiedSeq)) {
      await this.cosignMissing(accountId, latest);
      return { check };
    }
    const statement: CheckpointStatement = {
      accountId,
      seq: logs.verifiedSeq,
      hash: logs.verifiedHash,
      receiptSeq: receipts.verifiedSeq,
      receiptHash: receipts.verifiedHash,
      at: new Date().toISOString(),
    };
    const made = { ...statement, signature: signCheckpoint(key, statement), keyId: keyIdOf(key) };
    const note = signNote(this.checkpointText(accountId, check), this.signer.noteSigner()!);
    const id = await this.checkpoints.create(made, note);
    if (this.witnesses.configured.length > 0) await this.checkpoints.setNote(id, (await this.witnesses.cosign(accountId, note)).note);
    return { made, check };
  }

  /**
   * The latest checkpoint again to the witnesses that have not cosigned it (unreachable or refusing last time, or never
   * asked: the process died between signing and asking). Costs no request when every one has.
   */
  async cosignMissing(accountId: string, latest?: { id: bigint; note: string }): Promise<void> {
    if (this.witnesses.configured.length === 0) return;
    latest ??= await this.checkpoints.latestNote(accountId);
    if (!latest || this.witnesses.missing(cosigners(latest.note)).length === 0) return;
    const { note, answers } = await this.witnesses.cosign(accountId, latest.note);
    if ([...answers.values()].some((a) => a.outcome === 'cosigned')) await this.checkpoints.setNote(latest.id, note);
  }

  /** Each account's log is its own origin: witnesses keep one tree per origin. */
  origin(accountId: string): string {
    return `${this.config.auditOrigin}/${accountId}`;
  }

  /**
   * The verified heads as a c2sp.org/tlog-checkpoint: the log tree's size and root, and the receipt chain's head as an
   * extension line, so that one signature covers both as the JSON statement does.
   */
  private checkpointText(accountId: string, { logs, receipts }: AuditCheckView): string {
    return formatCheckpoint({
      origin: this.origin(accountId),
      size: BigInt(logs.verifiedSeq),
      rootHash: Buffer.from(logs.treeRoot, 'base64'),
      extensions: [`${RECEIPTS_EXTENSION} ${receipts.verifiedSeq} ${receipts.verifiedHash}`],
    });
  }

  /** Every account that has a chain, for the periodic jobs. */
  accountsWithChains(): Promise<string[]> {
    return this.rows.accounts();
  }

  list(accountId: string): Promise<CheckpointView[]> {
    return this.checkpoints.list(accountId);
  }
}

/** What the table's ends say against the head, at once (the check sees it at its next run). */
function endsDisagree({ logs, stored }: ChainHeads): Finding | undefined {
  const head = BigInt(logs.seq);
  if (head === 0n)
    return stored.last ? { chain: 'logs', seq: stored.last.seq, reason: `a log at seq ${stored.last.seq} is stored, but the chain is empty` } : undefined;
  if (stored.first !== '1') {
    const first = stored.first ?? logs.seq;
    return {
      chain: 'logs',
      seq: '1',
      reason: stored.first
        ? `the first stored log is seq ${first}: logs 1..${BigInt(first) - 1n} are missing`
        : `no log is stored: logs 1..${head} are missing`,
    };
  }
  const last = stored.last!;
  if (last.seq !== logs.seq) {
    const reason =
      BigInt(last.seq) < head
        ? `the last stored log is seq ${last.seq}: logs ${BigInt(last.seq) + 1n}..${head} are missing`
        : `a log at seq ${last.seq} is beyond the chain's head (seq ${head})`;
    return { chain: 'logs', seq: last.seq, reason };
  }
  if (last.hash !== logs.hash)
    return { chain: 'logs', seq: last.seq, reason: `the head states hash ${logs.hash}, but the stored log at seq ${last.seq} has ${last.hash}` };
  return undefined;
}

/** The `<name>+<hex key id>` of each signature of a note. */
function cosigners(note: string): Set<string> {
  return new Set(parseNote(note).signatures.map((s) => keyLabel(s.name, s.keyId)));
}

import { ConflictException, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { canonicalLog } from '#libs/audit-chain';
import { acceptedLog, AuditRows } from '#libs/ai-log';
import { consistencyProof, inclusionProof, leafHash, verifyInclusion } from '#libs/merkle-tree';
import { formatTlogProof, parseCheckpoint, parseNote } from '#libs/signed-note';
import { AuditCheckRepository } from './audit-check.repository.js';
import { AuditCheckpointRepository } from './audit-checkpoint.repository.js';
import { AuditTreeRepository } from './audit-tree.repository.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Checkpoints a proof may use: of these recent ones that cover the log, the newest with the most signatures, so that
 * a checkpoint the witnesses have not cosigned yet (a witness down, a crash before asking) does not replace one they did.
 */
const RECENT_NOTES = 10;

function mostCosigned<T extends { note: string }>(notes: T[]): T | undefined {
  const counts = notes.map((n) => parseNote(n.note).signatures.length);
  return notes[counts.indexOf(Math.max(...counts))];
}

/** How long to wait for the checkpoint that will cover a log (the worker signs when the tree grew). */
export const PROOF_RETRY_AFTER_S = 60;

/** A log is in the tree, but no checkpoint covers it yet: a code of its own, so that clients tell it from other 409s. */
export class ProofNotReadyException extends ConflictException {
  readonly retryAfterS = PROOF_RETRY_AFTER_S;

  constructor(message: string) {
    super({ code: 'PROOF_NOT_READY', message });
  }
}

export interface ConsistencyView {
  from: string;
  to: string;
  hashes: string[];
}

/** Inclusion and consistency proofs of each account's log tree (RFC 9162), in the C2SP formats. */
@Injectable()
export class AuditProofs {
  private readonly logger = new Logger(AuditProofs.name);

  constructor(
    private readonly rows: AuditRows,
    private readonly checkpoints: AuditCheckpointRepository,
    private readonly checks: AuditCheckRepository,
    private readonly tree: AuditTreeRepository,
  ) {}

  /**
   * A c2sp.org/tlog-proof of the log against the latest checkpoint that covers it; its `extra` line is the log as
   * accepted (the canonical JSON its leaf hashes), so the file alone shows what was logged.
   */
  async inclusion(accountId: string, id: string): Promise<string> {
    if (!UUID.test(id)) throw new NotFoundException(`no AI log ${id} for this account`);
    // At once: the newest notes by size are the ones that can cover any log, whatever its seq.
    const [row, recent] = await Promise.all([this.rows.logById(accountId, id), this.checkpoints.notesCovering(accountId, 1n, RECENT_NOTES)]);
    if (!row) throw new NotFoundException(`no AI log ${id} for this account`);
    if (row.seq === null) throw new NotFoundException(`AI log ${id} was stored before the audit chain existed: it has no place in the tree`);
    const seq = BigInt(row.seq);
    const signed = mostCosigned(recent.filter((n) => n.size >= seq));
    if (!signed)
      throw new ProofNotReadyException(
        `AI log ${id} (seq ${seq}) is not covered by a signed checkpoint yet: the worker signs one when the tree has grown, and the team's key (scope exchange:read, as a bearer) can sign one now with POST /v1/audit/checkpoints`,
      );
    const entry = Buffer.from(canonicalLog(acceptedLog(row)), 'utf8');
    const index = seq - 1n;
    const hashes = await inclusionProof(index, signed.size, this.tree.reader(accountId));
    // Never hand out a proof that does not hold: stored hashes changed after they were signed show here, not at the judge.
    const { rootHash } = parseCheckpoint(parseNote(signed.note).text);
    const check = verifyInclusion(leafHash(entry), index, signed.size, hashes, rootHash);
    if (!check.ok) {
      this.logger.warn(`account ${accountId}: the proof of log seq ${seq} does not match checkpoint ${signed.size}: ${check.reason}`);
      throw new ConflictException(
        `the stored tree does not match the checkpoint of size ${signed.size} for log seq ${seq} (${check.reason}): the audit trail was changed after it was signed`,
      );
    }
    return formatTlogProof({ extra: entry, index, hashes, checkpoint: signed.note });
  }

  /** The latest signed checkpoint note of the account's log tree. */
  async latestCheckpoint(accountId: string): Promise<string | undefined> {
    return (await this.checkpoints.latestNote(accountId))?.note;
  }

  /** RFC 9162 consistency proof from the tree of `from` logs to the tree of `to`, both within the tree verified so far. */
  async consistency(accountId: string, from: bigint, to: bigint): Promise<ConsistencyView> {
    const size = (await this.checks.find(accountId))?.logSeq ?? 0n;
    if (to > size) throw new NotFoundException(`to: the tree has ${size} logs verified so far, not ${to}`);
    const hashes = await consistencyProof(from, to, this.tree.reader(accountId));
    return { from: from.toString(), to: to.toString(), hashes: hashes.map((h) => h.toString('base64')) };
  }
}

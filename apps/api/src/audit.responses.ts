import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiId, ApiInstant, ApiNullable } from '#libs/api-docs';
import type {
  AuditCheckView,
  ChainCheckView,
  ChainHead,
  CheckpointView,
  ConsistencyView,
  Finding,
  LogChainCheckView,
  WitnessKeyView,
  WitnessView,
} from '#libs/audit';

/** The answers of /v1/audit, as OpenAPI schemas. Seqs are 64-bit: strings of digits. */

const CHAINS = ['logs', 'receipts'];
const HASH = { description: 'SHA-256 hex' };

export class ChainEndDto {
  @ApiId()
  seq: string;

  @ApiProperty(HASH)
  hash: string;
}

export class StoredRangeDto {
  @ApiId({ nullable: true, description: 'the first log the table holds' })
  firstSeq: string | null;

  @ApiId({ nullable: true })
  lastSeq: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  lastHash: string | null;
}

export class FindingDto implements Finding {
  @ApiProperty({ enum: CHAINS })
  chain: 'logs' | 'receipts';

  @ApiId({ nullable: true, description: 'null when the finding is not one link' })
  seq: string | null;

  @ApiProperty({ description: 'the rule that was broken' })
  reason: string;

  @ApiInstant({ required: false, description: 'when it was first found' })
  since?: string;
}

export class HeadCheckDto {
  @ApiProperty()
  ok: boolean;

  @ApiInstant({ nullable: true })
  checkedAt: string | null;

  @ApiId()
  verifiedSeq: string;

  @ApiNullable(FindingDto)
  broken: FindingDto | null;
}

export class WitnessDto implements WitnessView {
  @ApiProperty({ description: "the witness's key, `<name>+<hex key id>`" })
  witness: string;

  @ApiId({ description: 'the largest tree of this account it cosigned (0: none yet)' })
  cosignedSize: string;

  @ApiProperty({
    description:
      'whether the latest checkpoint carries its cosignature (false until it is sent one; a worker sends it again to witnesses that lack it within a minute)',
  })
  cosignedLatest: boolean;

  @ApiInstant({ nullable: true })
  cosignedAt: string | null;

  @ApiProperty({
    enum: ['cosigned', 'refused', 'unreachable'],
    nullable: true,
    description: '`refused`: it holds a tree the latest checkpoint does not extend (the history was rewritten, or rolled back): investigate',
  })
  outcome: 'cosigned' | 'refused' | 'unreachable' | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'why it did not cosign, when it did not' })
  error: string | null;

  @ApiInstant({ nullable: true, description: 'when it was last asked' })
  attemptedAt: string | null;
}

export class ChainHeadDto implements ChainHead {
  @ApiId({ description: 'the latest link of the log chain' })
  seq: string;

  @ApiProperty(HASH)
  hash: string;

  @ApiInstant({ description: 'when the head last moved' })
  at: string;

  /** The head of the receipt chain (one link per upload attempt). */

  @ApiProperty({ type: ChainEndDto })
  receipts: ChainEndDto;

  /** The first and last log the table holds now. */

  @ApiProperty({ type: StoredRangeDto })
  stored: StoredRangeDto;

  /** The server-side check's state. */

  @ApiProperty({ type: HeadCheckDto })
  check: HeadCheckDto;

  @ApiProperty({ type: [WitnessDto], description: 'each configured witness (AUDIT_WITNESSES) and what it last did with the checkpoints' })
  witnesses: WitnessDto[];
}

export class CheckpointDto implements CheckpointView {
  @ApiProperty()
  accountId: string;

  @ApiId()
  seq: string;

  @ApiProperty(HASH)
  hash: string;

  @ApiId({ required: false, description: 'the receipt chain head signed with it' })
  receiptSeq?: string;

  @ApiPropertyOptional(HASH)
  receiptHash?: string;

  @ApiInstant()
  at: string;

  @ApiProperty({ description: 'Ed25519 signature, base64' })
  signature: string;

  @ApiProperty({ description: 'SHA-256 hex of the public key' })
  keyId: string;
}

export class CheckpointListDto {
  @ApiProperty({ type: [CheckpointDto], description: 'oldest first' })
  data: CheckpointDto[];
}

export class ChainCheckDto implements ChainCheckView {
  @ApiId({ description: 'verified from the start up to this link' })
  verifiedSeq: string;

  @ApiProperty(HASH)
  verifiedHash: string;

  @ApiInstant({
    nullable: true,
    description: 'when the re-verification of the older links last ended a pass: every link up to the frontier as it was when the pass started',
  })
  sweptAt: string | null;
}

export class LogChainCheckDto extends ChainCheckDto implements LogChainCheckView {
  @ApiProperty({ description: 'root of the Merkle tree (RFC 9162) of the logs up to verifiedSeq, base64: what a checkpoint of that size signs' })
  treeRoot: string;
}

export class AuditCheckDto implements AuditCheckView {
  @ApiProperty()
  accountId: string;

  @ApiProperty({ description: 'nothing found broken' })
  ok: boolean;

  @ApiInstant({ nullable: true })
  checkedAt: string | null;

  @ApiProperty({ description: 'the last run got to both heads' })
  complete: boolean;

  @ApiInstant({
    nullable: true,
    description:
      "when the run under way (the worker's, or another request's) started; null when none is: the rest is then the last completed result, as of `checkedAt`",
  })
  runningSince: string | null;

  @ApiProperty({ type: LogChainCheckDto })
  logs: LogChainCheckDto;

  @ApiProperty({ type: ChainCheckDto })
  receipts: ChainCheckDto;

  @ApiNullable(FindingDto, { description: 'the first thing found broken' })
  broken: (Finding & { since: string }) | null;
}

export class PublicKeyDto {
  @ApiProperty({ description: 'Ed25519 public key, SPKI PEM' })
  pem: string;

  @ApiProperty({ description: 'SHA-256 hex of the key' })
  keyId: string;
}

export class ConsistencyDto implements ConsistencyView {
  @ApiId({ description: 'the earlier tree size' })
  from: string;

  @ApiId({ description: 'the later tree size' })
  to: string;

  @ApiProperty({ type: [String], description: 'RFC 9162 consistency proof, SHA-256 hashes in base64; empty when from = to' })
  hashes: string[];
}

export class WitnessKeyDto implements WitnessKeyView {
  @ApiProperty({ description: 'the witness, `<name>+<hex key id>`: the name and key id of its cosignature lines' })
  witness: string;

  @ApiProperty({ description: 'its c2sp.org/signed-note verifier key, `<name>+<hex key id>+<base64 key>`, as AUDIT_WITNESSES gives it' })
  verifierKey: string;
}

export class WitnessKeyListDto {
  @ApiProperty({ type: [WitnessKeyDto], description: 'in AUDIT_WITNESSES order; empty when none is configured' })
  data: WitnessKeyDto[];
}

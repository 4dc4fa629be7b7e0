import { Injectable, Logger } from '@nestjs/common';
import { GatewayConfig } from '#libs/config';
import { consistencyProof } from '#libs/merkle-tree';
import { keyLabel, openNote, parseCheckpoint, parseNote, SignedNoteError } from '#libs/signed-note';
import { AuditTreeRepository } from '../audit-tree.repository.js';
import { AuditWitnessRepository, type WitnessOutcome } from './audit-witness.repository.js';
import { type ConfiguredWitness, parseWitnesses } from './witness-list.js';

/** What one witness did with one checkpoint: its verified cosignature lines, or why there are none. */
export type WitnessAnswer = { outcome: 'cosigned'; lines: string } | { outcome: Exclude<WitnessOutcome, 'cosigned'>; error: string };

/** A configured witness as GET /v1/audit/witnesses shows it. */
export interface WitnessKeyView {
  /** `<name>+<hex key id>` of its cosignature key: the name and key id its signature lines carry. */
  witness: string;
  /** Its verifier key, `<name>+<hex key id>+<base64 key>`, as AUDIT_WITNESSES gives it. */
  verifierKey: string;
}

/** A tlog-witness answer: the status, and the body as text. */
interface Reply {
  status: number;
  contentType: string;
  text: string;
}

/** Bodies beyond this are not a witness's answer (a few cosignature lines, or a size). */
const MAX_REPLY_BYTES = 64 * 1024;

/**
 * The gateway's side of c2sp.org/tlog-witness: each new checkpoint goes to every configured witness with a consistency
 * proof from the size that witness last cosigned; the cosignatures that verify are kept in the checkpoint, and a
 * refusal (the witness holds a tree this one does not extend) or a failure is recorded and raised as an alert.
 */
@Injectable()
export class AuditWitnesses {
  private readonly logger = new Logger(AuditWitnesses.name);
  readonly configured: ConfiguredWitness[];

  constructor(
    config: GatewayConfig,
    private readonly states: AuditWitnessRepository,
    private readonly tree: AuditTreeRepository,
  ) {
    this.configured = parseWitnesses(config.auditWitnesses);
    this.timeoutMs = config.auditWitnessTimeoutMs;
  }

  private readonly timeoutMs: number;

  /**
   * Asks, at once, every witness whose cosignature the note lacks; answers the note with the cosignature lines that
   * verified appended.
   */
  async cosign(accountId: string, note: string): Promise<{ note: string; answers: Map<string, WitnessAnswer> }> {
    const { text, signatures } = parseNote(note);
    const { size, origin } = parseCheckpoint(text);
    const present = new Set(signatures.map((s) => keyLabel(s.name, s.keyId)));
    const answers = new Map<string, WitnessAnswer>();
    await Promise.all(
      this.missing(present).map(async (witness) => {
        const answer = await this.ask(witness, accountId, note, size).catch((error: unknown) => ({
          outcome: 'unreachable' as const,
          error: `could not ask: ${(error as Error).message}`,
        }));
        answers.set(witness.label, answer);
        const at = new Date();
        if (answer.outcome === 'cosigned') return this.states.cosigned(accountId, witness.label, size, at);
        await this.states.failed(accountId, witness.label, answer.outcome, answer.error, at);
        const message = `witness ${witness.label} (${witness.url}) ${answer.outcome === 'refused' ? 'REFUSED' : 'did not cosign'} checkpoint ${origin} of ${size} logs: ${answer.error}`;
        if (answer.outcome === 'refused') this.logger.error(`ALERT account ${accountId}: ${message}`);
        else this.logger.warn(`account ${accountId}: ${message}`);
      }),
    );
    const lines = this.configured.map((w) => answers.get(w.label)).flatMap((a) => (a?.outcome === 'cosigned' ? [a.lines] : []));
    return { note: note + lines.join(''), answers };
  }

  /** Each configured witness's label and verifier key, in AUDIT_WITNESSES order: what a judge checks cosignatures with. */
  verifierKeys(): WitnessKeyView[] {
    return this.configured.map(({ label, verifierKey }) => ({ witness: label, verifierKey }));
  }

  /** The witnesses that have not cosigned a note whose signatures are `present`. */
  missing(present: Set<string>): ConfiguredWitness[] {
    return this.configured.filter((w) => !present.has(w.label));
  }

  /** One witness: at most two requests, the second when it answers that it last cosigned another size than we knew. */
  private async ask(witness: ConfiguredWitness, accountId: string, note: string, size: bigint): Promise<WitnessAnswer> {
    let old = await this.states.cosignedSize(accountId, witness.label);
    for (let attempt = 0; ; attempt++) {
      if (old > size) return { outcome: 'refused', error: `it cosigned a tree of ${old} logs, and this checkpoint has ${size}: the log was rolled back` };
      const proof = old === 0n || old === size ? [] : await consistencyProof(old, size, this.tree.reader(accountId));
      const body = `old ${old}\n${proof.map((h) => `${h.toString('base64')}\n`).join('')}\n${note}`;
      const reply = await this.post(witness, body);
      if (reply.status === 200) return this.verified(witness, note, reply.text);
      if (reply.status === 409) {
        const known = /^(0|[1-9][0-9]{0,19})\n$/.exec(reply.text)?.[1];
        if (known === undefined) return { outcome: 'refused', error: `409 without its tree size: ${snippet(reply.text)}` };
        if (BigInt(known) !== old && attempt === 0) {
          old = BigInt(known);
          continue;
        }
        return { outcome: 'refused', error: `it holds a different tree of ${known} logs than this one (409)` };
      }
      const reasons: Record<number, string> = {
        422: `the consistency proof from the ${old} logs it cosigned does not hold: the history it saw was rewritten`,
        403: "it does not trust this gateway's key for the origin",
        404: 'it does not know the origin',
        400: 'it found the request malformed',
      };
      const reason = reasons[reply.status];
      if (reason) return { outcome: 'refused', error: `${reason} (${reply.status}: ${snippet(reply.text)})` };
      return { outcome: 'unreachable', error: `HTTP ${reply.status}: ${snippet(reply.text)}` };
    }
  }

  private async post(witness: ConfiguredWitness, body: string): Promise<Reply> {
    const res = await fetch(`${witness.url}/add-checkpoint`, { method: 'POST', body, signal: AbortSignal.timeout(this.timeoutMs), redirect: 'error' });
    const bytes = Buffer.from(await res.arrayBuffer());
    if (bytes.length > MAX_REPLY_BYTES) throw new Error(`an answer of ${bytes.length} bytes`);
    return { status: res.status, contentType: res.headers.get('content-type') ?? '', text: bytes.toString('utf8') };
  }

  /** Keeps the answer's lines only if each is a cosignature of this witness's key over this checkpoint. */
  private verified(witness: ConfiguredWitness, note: string, text: string): WitnessAnswer {
    const lines = text.split(/(?<=\n)/).filter((line) => line.length > 0);
    if (lines.length === 0 || lines.some((line) => !line.startsWith('— ') || !line.endsWith('\n'))) {
      return { outcome: 'unreachable', error: `200 without signature lines: ${snippet(text)}` };
    }
    try {
      const opened = openNote(note + lines.join(''), [witness.verifier]);
      if (opened.unverified.some((s) => s.name === witness.verifier.name)) throw new SignedNoteError('unknown-key', 'a line under its name but another key');
    } catch (error) {
      if (!(error instanceof SignedNoteError)) throw error;
      return { outcome: 'unreachable', error: `its answer is not its cosignature of this checkpoint: ${error.message}` };
    }
    // Only the witness's own lines are kept: anything else it sent is not its to add.
    const own = lines.filter((line) => line.startsWith(`— ${witness.verifier.name} `));
    return { outcome: 'cosigned', lines: own.join('') };
  }
}

const snippet = (text: string) => JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);

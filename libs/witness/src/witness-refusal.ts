/** What the witness answers to one add-checkpoint request: an HTTP status, a Content-Type and a text body. */
export interface WitnessAnswer {
  status: number;
  contentType: string;
  body: string;
}

export const TEXT = 'text/plain; charset=utf-8';
/** c2sp.org/tlog-witness: a 409 carries the size the witness last cosigned, as this type. */
export const TLOG_SIZE = 'text/x.tlog.size';

/**
 * A request the witness will not cosign, as the answer the spec prescribes. Thrown from deep in the checks and turned
 * into the answer at the top, so that each check is one line.
 */
export class WitnessRefusal extends Error {
  override readonly name = 'WitnessRefusal';

  constructor(
    readonly status: number,
    message: string,
    readonly contentType: string = TEXT,
    /** The body, when the spec fixes it (a 409's size); else the message and a newline. */
    readonly body: string = `${message}\n`,
  ) {
    super(message);
  }

  get answer(): WitnessAnswer {
    return { status: this.status, contentType: this.contentType, body: this.body };
  }
}

export function refuse(status: number, message: string): never {
  throw new WitnessRefusal(status, message);
}

/** 409 with the size the witness holds for the origin, so that the client can retry from it or see the fork. */
export function conflict(storedSize: bigint, message: string): never {
  throw new WitnessRefusal(409, message, TLOG_SIZE, `${storedSize}\n`);
}

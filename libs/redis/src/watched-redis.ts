import { setTimeout as sleep } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import { Command, Redis, type RedisOptions } from 'ioredis';

/** A command refused at once because Redis stopped answering and has not answered a PING since. */
export class RedisStalledError extends Error {
  override readonly name = 'RedisStalledError';
  /**
   * A connection error to BullMQ, which retries those after its runRetryDelay: any other error in a Worker's loop is
   * retried at once, and a loop of refusals that never waits for I/O would starve the PING that ends the stall.
   */
  readonly code = 'ECONNREFUSED';
}

/**
 * An ioredis connection for callers that have somewhere else to turn (an in-memory count, the outbox relay): a
 * command fails when it has no answer after `timeoutMs`, and once one has (Redis connected but silent: stopped,
 * swapping, a dead peer), every command is refused at once until a PING is answered, so that callers fall back
 * without each waiting out the timeout and nothing piles up behind the stall. Its 'error' events go to the log, once
 * per new message.
 */
export class WatchedRedis extends Redis {
  private readonly logger: Logger;
  private stalledSince?: number;
  private lastError?: string;

  constructor(
    url: string,
    label: string,
    private readonly timeoutMs: number,
    options: RedisOptions,
  ) {
    super(url, options);
    this.logger = new Logger(`Redis ${label}`);
    this.on('error', (error: Error) => this.logError(error));
    this.on('ready', () => {
      if (this.lastError !== undefined) this.logger.log('connected again');
      this.lastError = undefined;
    });
  }

  /** Connected, and answering: no command has gone unanswered since the last PING that was. */
  get available(): boolean {
    return this.status === 'ready' && this.stalledSince === undefined;
  }

  override sendCommand(...args: Parameters<Redis['sendCommand']>): unknown {
    const [command] = args;
    if (this.stalledSince !== undefined && this.status === 'ready') {
      command.reject(new RedisStalledError(`Redis has not answered for ${Date.now() - this.stalledSince} ms`));
      return command.promise;
    }
    // A new connection's handshake (INFO, CLIENT SETNAME) is ioredis's own, and takes as long as connecting does.
    const handshake = this.status === 'connect';
    const reply = super.sendCommand(...args) as Promise<unknown>;
    if (handshake) return reply;
    // Not ioredis's commandTimeout: timers run before the socket is read, so after this process was busy for longer
    // than the timeout, an answer waiting to be read would be given up on. Given up on after the next read instead.
    const timer = setTimeout(() => setImmediate(() => this.giveUp(command)), this.timeoutMs);
    const clear = () => clearTimeout(timer);
    reply.then(clear, clear);
    return reply;
  }

  private giveUp(command: Command): void {
    if (command.isResolved) return;
    command.reject(new Error(`Redis did not answer within ${this.timeoutMs} ms`));
    if (this.stalledSince !== undefined) return;
    this.stalledSince = Date.now();
    this.logger.warn(`no answer within ${this.timeoutMs} ms: commands are refused until Redis answers a PING`);
    void this.probe();
  }

  /** One PING at a time, which waits for Redis as long as it takes, until one is answered. */
  private async probe(): Promise<void> {
    while (this.stalledSince !== undefined && this.status !== 'end') {
      const ping = new Command('ping');
      try {
        await super.sendCommand(ping);
        this.logger.log(`answering again after ${Date.now() - this.stalledSince} ms`);
        this.stalledSince = undefined;
      } catch {
        // Refused at once while disconnected: wait before the next.
        await sleep(this.timeoutMs, undefined, { ref: false });
      }
    }
  }

  private logError(error: Error): void {
    if (error.message === this.lastError) return;
    this.lastError = error.message;
    this.logger.warn(`connection: ${error.message}`);
  }
}

import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { createLogger } from './pino-logger.js';
import { registerSecret } from './secret-scrubber.js';
import { PinoNestLogger } from './nest-logger.js';

function capture(): { lines: () => any[]; destination: Writable } {
  const chunks: string[] = [];
  const destination = new Writable({ write: (chunk, _enc, done) => (chunks.push(String(chunk)), done()) });
  return {
    lines: () =>
      chunks
        .join('')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    destination,
  };
}

describe('JSON logs', () => {
  it('writes one JSON line per event with level, name and the Nest context', () => {
    const out = capture();
    const logger = new PinoNestLogger(createLogger({ level: 'log', name: 'api', destination: out.destination }));
    logger.log('started', 'Bootstrap');
    logger.debug('not at this level', 'Bootstrap');
    logger.error('it broke', 'Error: it broke\n    at x', 'Uploader');
    expect(out.lines()).toEqual([
      expect.objectContaining({ level: 30, name: 'api', context: 'Bootstrap', msg: 'started' }),
      expect.objectContaining({ level: 50, context: 'Uploader', msg: 'it broke', stack: expect.stringContaining('at x') }),
    ]);
  });

  it("logs Nest's own start (modules loaded, routes mapped) at debug, so the default level leaves it out", () => {
    const quiet = capture();
    const atLog = new PinoNestLogger(createLogger({ level: 'log', name: 'api', destination: quiet.destination }));
    atLog.log('Mapped {/v1/ai-logs, POST} route', 'RouterExplorer');
    atLog.log('ApiModule dependencies initialized', 'InstanceLoader');
    atLog.log('listening', 'Gateway');
    expect(quiet.lines().map((l) => l.context)).toEqual(['Gateway']);
    const verbose = capture();
    const atDebug = new PinoNestLogger(createLogger({ level: 'debug', name: 'api', destination: verbose.destination }));
    atDebug.log('Mapped {/v1/ai-logs, POST} route', 'RouterExplorer');
    expect(verbose.lines()).toEqual([expect.objectContaining({ level: 20, context: 'RouterExplorer' })]);
  });

  it('redacts secret fields by path and registered secret values anywhere in a line', () => {
    const out = capture();
    const logger = createLogger({ level: 'log', name: 'worker', secrets: ['configured-passphrase-1'], destination: out.destination });
    registerSecret('account-secret-value-2');
    logger.info({ req: { headers: { authorization: 'Bearer abc', 'access-sign': 'c2lnbmF0dXJl' } }, account: { secret: 'x' } }, 'request');
    logger.warn('upload failed for key configured-passphrase-1 and account-secret-value-2 (nested "account-secret-value-2")');
    const text = JSON.stringify(out.lines());
    expect(text).not.toMatch(/Bearer abc|c2lnbmF0dXJl|configured-passphrase-1|account-secret-value-2/);
    expect(out.lines()[0].req.headers.authorization).toBe('[redacted]');
    expect(out.lines()[1].msg).toBe('upload failed for key [redacted] and [redacted] (nested "[redacted]")');
  });

  it('redacts any agent key the gateway issues, registered or not, such as one an agent put in a URL', () => {
    const out = capture();
    const logger = createLogger({ level: 'log', name: 'api', destination: out.destination });
    const key = `agk_${randomBytes(32).toString('base64url')}`; // as agent-key.ts makes them
    logger.info({ req: { url: `/llm/openai/v1/models?key=${key}` } }, `request for ${key}`);
    expect(JSON.stringify(out.lines())).not.toContain(key.slice(4));
    expect(out.lines()[0]).toMatchObject({ req: { url: '/llm/openai/v1/models?key=[redacted]' }, msg: 'request for [redacted]' });
    const encoded = `%61gk%5F${key.slice(4, 10)}%${key.charCodeAt(10).toString(16)}${key.slice(11)}`;
    logger.info({ req: { url: `/v1/model-calls?cursor=${encoded}` } }, 'incoming request');
    expect(out.lines()[1]).toMatchObject({ req: { url: '/v1/model-calls?cursor=[redacted]' } });
  });

  it('redacts a registered secret with any of its characters percent-encoded, as a URL may hold it', () => {
    const out = capture();
    const logger = createLogger({ level: 'log', name: 'api', destination: out.destination });
    registerSecret('configured_Agent-key/é0123');
    for (const url of ['/m?k=configured%5FAgent-key/é0123', '/m?k=configured_Agent%2dkey%2F%C3%A90123', '/m?k=%63onfigured_Agent-key/%c3%a90123&x=1%'])
      logger.info({ req: { url } }, 'incoming request');
    expect(out.lines().map((line) => line.req.url)).toEqual(['/m?k=[redacted]', '/m?k=[redacted]', '/m?k=[redacted]&x=1%']);
  });
});

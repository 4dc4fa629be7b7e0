import { AiLogUploadProcessor } from '../apps/worker/src/ai-log-upload.processor.js';
import { PeriodicWorkProcessor } from '../apps/worker/src/periodic-work.processor.js';
import { startHarness } from './support/gateway-harness.js';
import { REDIS_URL } from './support/services.js';
import { createTempDatabase } from './support/temp-database.js';
import { waitFor } from './support/wait-for.js';

// Test bodies are read loosely and checked by the assertions.
const json = (res: Response): Promise<any> => res.json();

const SETTINGS = { UPLOAD_CLAIM_MS: '7001', UPLOAD_ACCOUNT_CONCURRENCY: '3', RELAY_INTERVAL_MS: '1500' };

const modes = [
  { name: 'Redis', redis: true },
  { name: "BullMQ's PostgreSQL backend (embedded mode)", redis: false },
];

// @nestjs/bullmq builds the workers from their @Processor; what config says must reach BullMQ all the same: the lock
// that decides how soon a dead worker's account is taken over, the connection and prefix of the process's backend.
describe.each(modes)('the workers take their options from config: $name', (mode) => {
  it('sets the lock, the stalled check, concurrency, backend and error listener, and uploads', async () => {
    const temp = mode.redis ? await createTempDatabase() : undefined;
    const h = await startHarness(temp ? { ...SETTINGS, DATABASE_URL: temp.url, REDIS_URL } : SETTINGS);
    try {
      const backend = h.gateway.runtime.queue;
      expect(backend.kind).toBe(mode.redis ? 'redis' : 'postgres');
      const upload = h.gateway.worker!.get(AiLogUploadProcessor).worker;
      expect(upload.opts).toMatchObject({ concurrency: 3, lockDuration: 3501, stalledInterval: 1751, prefix: backend.prefix });
      expect(upload.opts.connection).toBe(backend.connection);
      expect(upload.listenerCount('error')).toBe(1);
      const periodic = h.gateway.worker!.get(PeriodicWorkProcessor).worker;
      expect(periodic.opts).toMatchObject({ concurrency: 7, runRetryDelay: 1500, prefix: backend.prefix }); // one slot per kind of periodic work
      expect(periodic.opts.connection).toBe(backend.connection);
      expect(periodic.listenerCount('error')).toBe(1);

      const res = await fetch(`${h.apiUrl}/v1/ai-logs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.agentKey}`, 'content-type': 'application/json' },
        body: '{"stage":"s","model":"m","input":{},"output":{},"explanation":""}',
      });
      expect(res.status).toBe(202);
      const { id } = await json(res);
      const status = async () => (await json(await fetch(`${h.apiUrl}/v1/ai-logs/${id}`, { headers: { authorization: `Bearer ${h.agentKey}` } }))).status;
      await waitFor('the log to be uploaded', async () => ((await status()) === 'uploaded' ? true : undefined));
    } finally {
      await h.close();
      await temp?.drop();
    }
  });
});

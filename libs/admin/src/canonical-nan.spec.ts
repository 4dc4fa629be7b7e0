import { Gauge, Registry } from 'prom-client';
import { canonicalNaN } from './metrics.service.js';

describe('canonicalNaN', () => {
  it("spells prom-client's NaN samples as the exposition format does, and leaves other lines alone", async () => {
    const registry = new Registry();
    const gauge = new Gauge({ name: 'lag_seconds', help: 'mean lag, or Nan', labelNames: ['kind'], registers: [registry] });
    gauge.set({ kind: 'none' }, NaN);
    gauge.set({ kind: 'some' }, 0.5);
    const raw = await registry.metrics();
    expect(raw).toContain('lag_seconds{kind="none"} Nan\n');
    const text = canonicalNaN(raw);
    expect(text).toContain('lag_seconds{kind="none"} NaN\n');
    expect(text).toContain('lag_seconds{kind="some"} 0.5\n');
    expect(text).toContain('# HELP lag_seconds mean lag, or Nan\n');
  });
});

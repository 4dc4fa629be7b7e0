import { Registry } from 'prom-client';
import { PrecountedHistogram } from './precounted-histogram.js';

describe('PrecountedHistogram', () => {
  it('is exposed like a prom-client histogram: cumulative buckets, +Inf, sum and count per label set', async () => {
    const registry = new Registry();
    const histogram = new PrecountedHistogram('x_seconds', 'Test.', [0.1, 1]);
    registry.registerMetric(histogram.asMetric());
    histogram.set([{ labels: { outcome: 'ok' }, buckets: [2, 3], count: 4, sum: 5.5 }]);
    expect(await registry.metrics()).toBe(
      [
        '# HELP x_seconds Test.',
        '# TYPE x_seconds histogram',
        'x_seconds_bucket{outcome="ok",le="0.1"} 2',
        'x_seconds_bucket{outcome="ok",le="1"} 3',
        'x_seconds_bucket{outcome="ok",le="+Inf"} 4',
        'x_seconds_sum{outcome="ok"} 5.5',
        'x_seconds_count{outcome="ok"} 4',
        '',
      ].join('\n'),
    );
    registry.resetMetrics();
    expect(await registry.metrics()).toBe('# HELP x_seconds Test.\n# TYPE x_seconds histogram\n');
  });
});

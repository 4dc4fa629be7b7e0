import type { Metric } from 'prom-client';

export interface HistogramSeries {
  labels: Record<string, string>;
  /** Cumulative counts at each bound, as Prometheus exposes them. */
  buckets: number[];
  count: number;
  sum: number;
}

/**
 * A histogram whose buckets were counted elsewhere (by PostgreSQL). prom-client's Histogram only grows through
 * observe() in this process, so this one hands the registry the same `get()` answer its own metrics give.
 */
export class PrecountedHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'max';
  private series: HistogramSeries[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    /** Upper bounds, ascending, in the unit exposed. */
    private readonly bounds: readonly number[],
  ) {}

  set(series: HistogramSeries[]): void {
    this.series = series;
  }

  reset(): void {
    this.series = [];
  }

  async get() {
    const bucket = `${this.name}_bucket`;
    const values = this.series.flatMap(({ labels, buckets, count, sum }) => [
      ...this.bounds.map((le, i) => ({ metricName: bucket, labels: { ...labels, le }, value: buckets[i] })),
      { metricName: bucket, labels: { ...labels, le: '+Inf' }, value: count },
      { metricName: `${this.name}_sum`, labels, value: sum },
      { metricName: `${this.name}_count`, labels, value: count },
    ]);
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  /** For Registry.registerMetric, which is typed for prom-client's own classes but reads only name, get and reset. */
  asMetric(): Metric {
    return this as unknown as Metric;
  }
}

// Types of proofs.mjs for test/bench-scenarios.e2e-spec.ts: what every scenario's run() answers.
export declare const title: string;
export declare function run(): Promise<{ error?: string; details: string[]; throughput: number; unit: string }>;

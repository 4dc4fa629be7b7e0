// Types of what test/fault-run.e2e-spec.ts uses of the fault run's reckoning (bench/ is plain JavaScript).
import type { Figures } from './fault-run-core.mjs';

export declare const MUST_BE_ZERO: Record<string, string>;
export declare function failures(figures: Figures): string[];

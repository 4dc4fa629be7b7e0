/** The simulator's notion of now, in Unix milliseconds; tests replace it to move time. */
export type Clock = () => number;

/** Injection token for the {@link Clock}. */
export const SIM_CLOCK = Symbol('SIM_CLOCK');

import { scenario } from './otlp.mjs';

/** The OTLP scenario with a decision per four model calls: each trace's last span names the order and makes an AI log. */
export const { title, run } = scenario(4);

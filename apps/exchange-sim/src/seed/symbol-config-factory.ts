import type { SimPosition, SimSymbolConfig } from '../state/account-records.js';
import { MARKET_SYMBOLS } from './market-catalog.js';
import type { SeedContext } from './seed-context.js';

/** One symbol's settings; defaults are cross margin at 20x, isolated at 10x [G]. */
export function makeSymbolConfig(_ctx: SeedContext, hints: Partial<SimSymbolConfig> = {}): SimSymbolConfig {
  return {
    symbol: 'BTCUSDT',
    marginType: 'CROSSED',
    separatedType: 'COMBINED',
    crossLeverage: '20',
    isolatedLongLeverage: '10',
    isolatedShortLeverage: '10',
    ...hints,
  };
}

/** A configuration per known symbol (and per symbol a position uses) that agrees with the account's positions. */
export function symbolConfigsFor(ctx: SeedContext, positions: readonly SimPosition[]): SimSymbolConfig[] {
  const symbols = [...new Set([...MARKET_SYMBOLS.map((m) => m.symbol), ...positions.map((p) => p.symbol)])];
  return symbols.map((symbol) => {
    const held = positions.filter((p) => p.symbol === symbol);
    const hints: Partial<SimSymbolConfig> = { symbol };
    for (const p of held) {
      hints.marginType = p.marginType;
      hints.separatedType = p.separatedMode;
      if (p.marginType === 'CROSSED') hints.crossLeverage = p.leverage;
      else if (p.side === 'LONG') hints.isolatedLongLeverage = p.leverage;
      else hints.isolatedShortLeverage = p.leverage;
    }
    return makeSymbolConfig(ctx, hints);
  });
}

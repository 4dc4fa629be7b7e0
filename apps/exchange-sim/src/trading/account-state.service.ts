import { Injectable } from '@nestjs/common';
import type { RequestParams } from '../http/request-params.js';
import { divUnits, fromUnits, mulUnits, toUnits } from '../seed/decimal-units.js';
import { CONTRACT_FEES } from '../seed/market-catalog.js';
import type { SimPosition } from '../state/account-records.js';
import { OPEN_ORDER_STATUSES } from '../state/order-records.js';
import type { SimAccount } from '../state/sim-account.js';
import { walletBalance } from './fills.js';
import { marketParam } from './order-requests.js';

/** One asset of GET /capi/v3/account/balance, in the shape of ccxt's capture (weex.js fetchBalance) [L]. */
export interface BalanceItem {
  asset: string;
  balance: string;
  availableBalance: string;
  frozen: string;
  unrealizePnl: string;
}

const DEFAULT_LEVERAGE = 20n * 100_000_000n;

/** Balance, single position and fee rates: read from the account's ledger, positions and open orders. */
@Injectable()
export class AccountStateService {
  /**
   * The USDT wallet: balance is the ledger's running balance; frozen is the margin of the positions and of the open
   * orders (at the symbol's cross leverage) [G].
   */
  balance(account: SimAccount): BalanceItem[] {
    const balance = walletBalance(account);
    const positionsMargin = account.data.positions.reduce((sum, p) => sum + toUnits(p.marginSize), 0n);
    const ordersMargin = account.data.orders
      .filter((o) => OPEN_ORDER_STATUSES.includes(o.status))
      .reduce((sum, o) => {
        const leverage = account.data.symbolConfigs.find((c) => c.symbol === o.symbol)?.crossLeverage;
        const open = mulUnits(toUnits(o.origQty) - toUnits(o.executedQty), toUnits(o.price));
        return sum + divUnits(open, leverage ? toUnits(leverage) : DEFAULT_LEVERAGE);
      }, 0n);
    const frozen = positionsMargin + ordersMargin;
    const unrealized = account.data.positions.reduce((sum, p) => sum + toUnits(p.unrealizePnl), 0n);
    return [
      {
        asset: 'USDT',
        balance: fromUnits(balance),
        availableBalance: fromUnits(balance - frozen),
        frozen: fromUnits(frozen),
        unrealizePnl: fromUnits(unrealized),
      },
    ];
  }

  /** GET /capi/v3/account/position/singlePosition: the positions (long, short) of one symbol. */
  positionsOf(account: SimAccount, params: RequestParams): SimPosition[] {
    const market = marketParam(params);
    return account.data.positions.filter((p) => p.symbol === market.symbol);
  }

  /** GET /capi/v3/account/commissionRate, as ccxt's capture shows it (weex.js fetchTradingFee) [L]. */
  commissionRate(params: RequestParams): Record<string, string> {
    const market = marketParam(params);
    return { symbol: market.symbol, makerCommissionRate: CONTRACT_FEES.maker, takerCommissionRate: CONTRACT_FEES.taker };
  }
}

import { useConsole } from './context';
import { when, whenMillis } from './format';
import { LogText } from './log-text';
import { Refusal } from './refusal';
import { logHref } from './route';
import type { OrderEvidence as Evidence } from './types';
import { useFetch } from './use-fetch';

/** Until the order is covered, the evidence sync may still bring it (or its fills): looked at again this often. */
const UNTIL_COVERED_MS = 3000;

/** The order a log names, with its fills and every log that covers it (GET /v1/orders/:orderId/evidence). */
export function OrderEvidence({ orderId, logId }: { orderId: string; logId: string }) {
  const { api } = useConsole();
  const { data, error } = useFetch(
    () => api.json<Evidence>(`/v1/orders/${encodeURIComponent(orderId)}/evidence`),
    [api, orderId],
    (d) => (d?.coverage === 'covered' && d.order ? undefined : UNTIL_COVERED_MS),
  );
  return (
    <section class="evidence" aria-labelledby="order-heading">
      <h2 id="order-heading">Order {orderId}</h2>
      {error?.status === 404 && !data && <p>The exchange has reported no order {orderId} yet: it shows here once the evidence sync brings it.</p>}
      {error && error.status !== 404 && !data && <Refusal error={error} what="The order's evidence could not be read" />}
      {data && (
        <>
          <p>
            Coverage: <span class={`coverage coverage-${data.coverage}`}>{data.coverage}</span>
          </p>
          {data.order ? (
            <dl class="facts">
              <dt>Symbol</dt>
              <dd>{data.order.symbol}</dd>
              <dt>Side and type</dt>
              <dd>
                {data.order.side} {data.order.type}
              </dd>
              <dt>Status</dt>
              <dd>{data.order.status}</dd>
              <dt>Quantity (filled)</dt>
              <dd>
                {data.order.origQty} ({data.order.executedQty})
              </dd>
              <dt>Average price</dt>
              <dd>{data.order.avgPrice}</dd>
              <dt>Placed</dt>
              <dd>{whenMillis(data.order.time)}</dd>
            </dl>
          ) : (
            <p>
              The exchange has reported no order {orderId} yet{data.planOrder ? ' (it names a plan order)' : ''}.
            </p>
          )}
          {data.planOrder && (
            <p>
              Plan order {data.planOrder.algoId} ({data.planOrder.orderType}, {data.planOrder.algoStatus}), {data.planOrderLink}.
            </p>
          )}
          <h3>Fills</h3>
          {data.fills.length === 0 ? (
            <p>No fill.</p>
          ) : (
            <div class="scroll">
              <table class="fills">
                <thead>
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">Side</th>
                    <th scope="col">Price</th>
                    <th scope="col">Quantity</th>
                    <th scope="col">Fee</th>
                    <th scope="col">Fill ID</th>
                  </tr>
                </thead>
                <tbody>
                  {data.fills.map((f) => (
                    <tr key={f.id}>
                      <td>{whenMillis(f.time)}</td>
                      <td>{f.side}</td>
                      <td>{f.price}</td>
                      <td>{f.qty}</td>
                      <td>
                        {f.commission} {f.commissionAsset}
                      </td>
                      <td>{f.id}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <h3>Decisions naming it</h3>
          <ul>
            {data.logs.map((l) => (
              <li key={l.id}>
                {l.id === logId ? (
                  'this one'
                ) : (
                  <a href={logHref(l.id)}>
                    <LogText text={l.model} /> · <LogText text={l.stage} />
                  </a>
                )}
                : {l.status}, received {when(l.receivedAt)}
                {l.links !== 'order' && ` (through its ${l.links === 'planOrder' ? 'plan order' : 'attached order'})`}
              </li>
            ))}
          </ul>
        </>
      )}
      {!data && !error && <p role="status">Loading the order…</p>}
    </section>
  );
}

import { request } from 'node:http';

export interface FetchFromInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * A fetch whose connections come from `localAddress`: any 127.x.y.z reaches a server on 127.0.0.1, so tests that count
 * per client address can each be a client of their own. (Node's fetch cannot pick its source address.)
 */
export function fetchFrom(localAddress: string): (url: string, init?: FetchFromInit) => Promise<Response> {
  return (url, init = {}) =>
    new Promise((resolve, reject) => {
      const sent = request(url, { method: init.method ?? 'GET', headers: init.headers, localAddress }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('error', reject);
        answer.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(answer.headers)) {
            for (const one of Array.isArray(value) ? value : [value ?? '']) headers.append(name, one);
          }
          const body = [204, 304].includes(answer.statusCode!) ? null : Buffer.concat(chunks);
          resolve(new Response(body, { status: answer.statusCode, headers }));
        });
      });
      sent.on('error', reject);
      sent.end(init.body);
    });
}

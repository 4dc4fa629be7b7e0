import { parseJson, stringifyJson } from '#libs/common';
import { sign } from '#libs/weex-client';

export interface DataCaller {
  apiKey: string;
  secret: string;
  passphrase: string;
}

export interface DataAnswer {
  status: number;
  text: string;
  /** Parsed losslessly: 18-digit IDs come back as bigint. */
  json: unknown;
}

/** Signed GET and POST calls against one simulator host, as the gateway's client makes them. */
export class SimDataClient {
  constructor(
    private readonly baseUrl: string,
    private readonly caller: DataCaller,
    private readonly timestamp: () => number,
  ) {}

  /** The query string is built once; that text is signed and sent. */
  get(path: string, query: Record<string, string | number | bigint> = {}): Promise<DataAnswer> {
    const queryString = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
    const url = queryString ? `${path}?${queryString}` : path;
    return this.send('GET', path, url, queryString, undefined);
  }

  /** The body text is built once (losslessly, bigint as a bare integer); that text is signed and sent. */
  post(path: string, body: unknown = {}): Promise<DataAnswer> {
    const text = typeof body === 'string' ? body : stringifyJson(body);
    return this.send('POST', path, path, '', text);
  }

  private async send(method: string, path: string, url: string, queryString: string, body?: string): Promise<DataAnswer> {
    const timestamp = String(this.timestamp());
    const headers: Record<string, string> = {
      'ACCESS-KEY': this.caller.apiKey,
      'ACCESS-SIGN': sign(this.caller.secret, { timestamp, method, requestPath: path, queryString, body }),
      'ACCESS-PASSPHRASE': this.caller.passphrase,
      'ACCESS-TIMESTAMP': timestamp,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    };
    const res = await fetch(`${this.baseUrl}${url}`, { method, headers, body });
    const text = await res.text();
    return { status: res.status, text, json: parseJson(text) };
  }
}

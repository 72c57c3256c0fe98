// A JSON-RPC 2.0 client over one WebSocket, one message per text frame, as
// the language server's WebSocket face speaks it (docs: lsp). It answers the
// server's own requests (window/showMessageRequest) through onRequest and
// hands notifications to onNotify.

export interface RPCErrorData {
  code?: string;
  message?: string;
  data?: { op?: number; [k: string]: unknown };
  [k: string]: unknown;
}

/** An error answered by the server: message starts with the tool's code. */
export class RPCError extends Error {
  constructor(
    public rpcCode: number,
    message: string,
    public data?: RPCErrorData,
  ) {
    super(message);
  }
  /** The tool error's code (T9105, ...), from data or the message's start. */
  get toolCode(): string {
    const c = this.data?.code;
    if (typeof c === 'string') return c;
    const m = /^(T\d{4})/.exec(this.message);
    return m ? m[1] : '';
  }
  /** The index of the operation refused, where the server named one. */
  get op(): number | undefined {
    const d = this.data?.data?.op ?? (this.data as { op?: number } | undefined)?.op;
    return typeof d === 'number' ? d : undefined;
  }
}

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };

export interface ConnHandlers {
  onNotify(method: string, params: unknown): void;
  onRequest(method: string, params: unknown): Promise<unknown>;
  onClose(reason: string): void;
}

/** Conn is one open WebSocket session. */
export class Conn {
  private next = 1;
  private pending = new Map<number, Pending>();
  private closed = false;

  private constructor(
    private ws: WebSocket,
    private h: ConnHandlers,
  ) {
    ws.onmessage = (ev) => this.receive(String(ev.data));
    ws.onclose = (ev) => this.shut(ev.reason || `closed (${ev.code})`);
    ws.onerror = () => this.shut('connection error');
  }

  /** open connects to url and resolves once the socket is open. */
  static open(url: string, h: ConnHandlers): Promise<Conn> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      const fail = () => reject(new Error('cannot connect to ' + url));
      ws.onerror = fail;
      ws.onclose = fail;
      ws.onopen = () => resolve(new Conn(ws, h));
    });
  }

  request<T>(method: string, params?: unknown): Promise<T> {
    if (this.closed) return Promise.reject(new Error('not connected'));
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.send({ jsonrpc: '2.0', id, method, params: params ?? {} });
    });
  }

  notify(method: string, params?: unknown): void {
    if (!this.closed) this.send({ jsonrpc: '2.0', method, params: params ?? {} });
  }

  close(): void {
    this.ws.close();
  }

  private send(msg: unknown) {
    this.ws.send(JSON.stringify(msg));
  }

  private receive(text: string) {
    let msg: {
      id?: number | string;
      method?: string;
      params?: unknown;
      result?: unknown;
      error?: { code: number; message: string; data?: RPCErrorData };
    };
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (msg.method !== undefined) {
      if (msg.id === undefined) {
        this.h.onNotify(msg.method, msg.params);
        return;
      }
      const id = msg.id;
      this.h.onRequest(msg.method, msg.params).then(
        (result) => this.send({ jsonrpc: '2.0', id, result: result ?? null }),
        (e: Error) => this.send({ jsonrpc: '2.0', id, error: { code: -32603, message: String(e.message) } }),
      );
      return;
    }
    const p = typeof msg.id === 'number' ? this.pending.get(msg.id) : undefined;
    if (!p) return;
    this.pending.delete(msg.id as number);
    if (msg.error) p.reject(new RPCError(msg.error.code, msg.error.message, msg.error.data));
    else p.resolve(msg.result);
  }

  private shut(reason: string) {
    if (this.closed) return;
    this.closed = true;
    for (const p of this.pending.values()) p.reject(new Error(reason));
    this.pending.clear();
    this.h.onClose(reason);
  }
}

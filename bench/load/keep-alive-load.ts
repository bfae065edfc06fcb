import { connect, type Socket } from 'node:net';

// The throughput figure's load: keep-alive connections, each with one request in flight while the
// load runs, on raw sockets. It can be stopped and started again on the same connections, so two
// servers can be loaded in turn, a fraction of a second each (figures/interleaved.ts), without a
// connection set-up in every turn. Leaner per request than autocannon (about 60% of its CPU drives
// a saturated B-fastify here), so the server, not the load, sets the rate. It only reads what it
// needs of each answer: the status and where the answer ends.

/** What a load counted: answers by class, and connections that failed. */
export interface LoadCounts {
  /** Answers with a 2xx status. */
  answered: number;
  /** Answers with any other status. */
  refused: number;
  /** Sockets that failed or closed while the load ran. */
  errors: number;
}

/** The statuses of the complete answers at the start of `text`, and what is left of it (part of the next answer). */
export function takeAnswers(text: string): { statuses: number[]; rest: string } {
  const statuses: number[] = [];
  let at = 0;
  for (;;) {
    const headEnd = text.indexOf('\r\n\r\n', at);
    if (headEnd === -1) break;
    const head = text.slice(at, headEnd);
    const status = Number(head.slice(9, 12));
    if (!head.startsWith('HTTP/1.') || !Number.isInteger(status))
      throw new Error(`not an HTTP answer: ${head.slice(0, 40)}`);
    let end = headEnd + 4;
    const length = /\r\ncontent-length:[ \t]*(\d+)/i.exec(head);
    if (length !== null) end += Number(length[1]);
    else if (/\r\ntransfer-encoding:[ \t]*chunked/i.test(head)) {
      const last = text.indexOf('\r\n0\r\n\r\n', end - 2);
      if (last === -1) break;
      end = last + 7;
    }
    if (end > text.length) break;
    statuses.push(status);
    at = end;
  }
  return { statuses, rest: text.slice(at) };
}

/** One POST of `body` as text to `path`, with these extra headers, as bytes on the wire. */
export function postRequest(url: string, path: string, headers: Record<string, string>, body: string): Buffer {
  const { host } = new URL(url);
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return Buffer.from(
    `POST ${path} HTTP/1.1\r\nHost: ${host}\r\n${lines.join('')}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

export class KeepAliveLoad {
  readonly counts: LoadCounts = { answered: 0, refused: 0, errors: 0 };
  private running = false;
  private closing = false;
  /** The connections with a request in flight. */
  private readonly busy = new Set<Socket>();
  private idle: Socket[];
  private onDrained: (() => void) | undefined;

  private constructor(
    private readonly request: Buffer,
    private readonly sockets: Socket[],
  ) {
    this.idle = [...sockets];
    for (const socket of sockets) this.follow(socket);
  }

  /** Opens `connections` connections to the server at `url`; the load starts with `start()`. If one fails, none is left open. */
  static async open(url: string, request: Buffer, connections: number): Promise<KeepAliveLoad> {
    const { hostname, port } = new URL(url);
    const opened = await Promise.allSettled(
      Array.from(
        { length: connections },
        () =>
          new Promise<Socket>((resolve, reject) => {
            const socket = connect(Number(port), hostname, () => {
              socket.off('error', reject);
              resolve(socket);
            });
            socket.once('error', reject);
            socket.setNoDelay(true);
          }),
      ),
    );
    const sockets = opened.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const failed = opened.find((result) => result.status === 'rejected');
    if (failed !== undefined) {
      for (const socket of sockets) socket.destroy();
      throw failed.reason;
    }
    return new KeepAliveLoad(request, sockets);
  }

  /** Sends a request on every idle connection, and another on each as soon as it is answered. */
  start(): void {
    this.running = true;
    for (const socket of this.idle.splice(0)) this.send(socket);
  }

  /** Sends no more; resolves once every request in flight is answered (or lost with its connection). */
  stop(): Promise<void> {
    this.running = false;
    if (this.busy.size === 0) return Promise.resolve();
    return new Promise((resolve) => (this.onDrained = resolve));
  }

  close(): void {
    this.running = false;
    this.closing = true;
    for (const socket of this.sockets) socket.destroy();
  }

  private send(socket: Socket): void {
    this.busy.add(socket);
    socket.write(this.request);
  }

  private follow(socket: Socket): void {
    let pending = '';
    socket.on('data', (chunk: Buffer) => {
      const { statuses, rest } = takeAnswers(pending + chunk.toString('latin1'));
      pending = rest;
      for (const status of statuses) {
        if (status >= 200 && status < 300) this.counts.answered++;
        else this.counts.refused++;
        this.answered(socket);
      }
    });
    // An error is followed by the close, which counts it.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (this.closing) return;
      this.counts.errors++;
      this.idle = this.idle.filter((other) => other !== socket);
      if (this.busy.delete(socket) && this.busy.size === 0) this.drained();
    });
  }

  private answered(socket: Socket): void {
    if (this.running) return this.send(socket);
    this.busy.delete(socket);
    this.idle.push(socket);
    if (this.busy.size === 0) this.drained();
  }

  private drained(): void {
    const resolve = this.onDrained;
    this.onDrained = undefined;
    resolve?.();
  }
}

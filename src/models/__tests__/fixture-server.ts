/**
 * A real HTTP server on 127.0.0.1 (random port) for provider tests: it records every request
 * (method, path, headers, parsed JSON body) and answers with queued replies in wire format —
 * JSON bodies, or server-sent events written in small chunked pieces (each event split
 * mid-frame) the way providers stream them. Replies can also hang (for timeouts and aborts)
 * or drop the connection (network errors).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** One server-sent event: `data` is JSON-encoded unless it is a string (e.g. `[DONE]`). */
export interface SseEvent {
  event?: string;
  data: unknown;
}

export type FixtureReply =
  | { kind: "json"; status?: number; headers?: Record<string, string>; body: unknown }
  | {
      kind: "sse";
      events: SseEvent[];
      headers?: Record<string, string>;
      /** Keep the connection open after the last event (the client must abort). */
      hang?: boolean;
      /** Pause before each event, in milliseconds. */
      delayMs?: number;
    }
  | { kind: "hang" }
  | { kind: "destroy" };

export class FixtureServer {
  readonly requests: RecordedRequest[] = [];
  /** Responses whose connection the client closed before the server finished. */
  disconnects = 0;
  private readonly queue: FixtureReply[] = [];
  private readonly server: Server;
  private base = "";

  private constructor() {
    this.server = createServer((req, res) => {
      void this.handle(req, res);
    });
  }

  static async start(): Promise<FixtureServer> {
    const fixture = new FixtureServer();
    await new Promise<void>((resolve) => fixture.server.listen(0, "127.0.0.1", resolve));
    const { port } = fixture.server.address() as AddressInfo;
    fixture.base = `http://127.0.0.1:${port}`;
    return fixture;
  }

  /** The server's origin, e.g. `http://127.0.0.1:54321`. */
  get url(): string {
    return this.base;
  }

  /** Queues replies, answered in order, one per request. */
  reply(...replies: FixtureReply[]): this {
    this.queue.push(...replies);
    return this;
  }

  /** Waits until the client has dropped `count` connections (or fails after 2 s). */
  async waitForDisconnects(count: number): Promise<void> {
    const deadline = Date.now() + 2000;
    while (this.disconnects < count) {
      if (Date.now() > deadline)
        throw new Error(`expected ${count} client disconnect(s), saw ${this.disconnects}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    let body: unknown = raw;
    try {
      body = raw === "" ? undefined : JSON.parse(raw);
    } catch {
      // keep the raw text
    }
    this.requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
    let finished = false;
    res.on("close", () => {
      if (!finished) this.disconnects += 1;
    });
    const reply = this.queue.shift();
    if (reply === undefined) {
      finished = true;
      res.writeHead(599, { "content-type": "application/json", "x-should-retry": "false" });
      res.end(JSON.stringify({ error: { message: "fixture server: no reply queued for this request" } }));
      return;
    }
    switch (reply.kind) {
      case "json":
        finished = true;
        res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
        res.end(JSON.stringify(reply.body));
        return;
      case "hang":
        return;
      case "destroy":
        finished = true;
        req.socket.destroy();
        return;
      case "sse": {
        res.writeHead(200, {
          "content-type": "text/event-stream",
          "cache-control": "no-cache",
          ...reply.headers,
        });
        res.flushHeaders();
        for (const event of reply.events) {
          if (res.destroyed) return;
          if (reply.delayMs !== undefined) await sleep(reply.delayMs);
          const frame = `${event.event === undefined ? "" : `event: ${event.event}\n`}data: ${
            typeof event.data === "string" ? event.data : JSON.stringify(event.data)
          }\n\n`;
          // Two writes per frame, split mid-frame, so the client's SSE parser must buffer.
          const cut = Math.ceil(frame.length / 2);
          res.write(frame.slice(0, cut));
          await sleep(1);
          res.write(frame.slice(cut));
        }
        if (reply.hang === true) return;
        finished = true;
        res.end();
        return;
      }
    }
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      text += chunk;
    });
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** OpenAI SSE events for the given chunk objects, followed by `[DONE]`. */
export function openAIEvents(chunks: unknown[]): SseEvent[] {
  return [...chunks.map((data) => ({ data })), { data: "[DONE]" }];
}

/** Anthropic SSE events: each `event:` name is the payload's `type`. */
export function anthropicEvents(events: Array<{ type: string; [key: string]: unknown }>): SseEvent[] {
  return events.map((data) => ({ event: data.type, data }));
}

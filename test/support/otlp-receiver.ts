import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import protobuf from "protobufjs";

/**
 * The part of OTLP's trace protocol (opentelemetry/proto/collector/trace/v1) a test reads, as a
 * protobufjs schema; fields left out are skipped when decoding, as protobuf allows.
 */
const root = protobuf.Root.fromJSON({
  nested: {
    ExportTraceServiceRequest: {
      fields: { resourceSpans: { rule: "repeated", type: "ResourceSpans", id: 1 } },
    },
    ResourceSpans: {
      fields: {
        resource: { type: "Resource", id: 1 },
        scopeSpans: { rule: "repeated", type: "ScopeSpans", id: 2 },
      },
    },
    Resource: { fields: { attributes: { rule: "repeated", type: "KeyValue", id: 1 } } },
    ScopeSpans: { fields: { spans: { rule: "repeated", type: "Span", id: 2 } } },
    Span: {
      fields: {
        traceId: { type: "bytes", id: 1 },
        spanId: { type: "bytes", id: 2 },
        parentSpanId: { type: "bytes", id: 4 },
        name: { type: "string", id: 5 },
        kind: { type: "int32", id: 6 },
        attributes: { rule: "repeated", type: "KeyValue", id: 9 },
        status: { type: "Status", id: 15 },
      },
    },
    Status: { fields: { code: { type: "int32", id: 3 } } },
    KeyValue: { fields: { key: { type: "string", id: 1 }, value: { type: "AnyValue", id: 2 } } },
    AnyValue: {
      oneofs: { value: { oneof: ["stringValue", "boolValue", "intValue", "doubleValue"] } },
      fields: {
        stringValue: { type: "string", id: 1 },
        boolValue: { type: "bool", id: 2 },
        intValue: { type: "int64", id: 3 },
        doubleValue: { type: "double", id: 4 },
      },
    },
  },
});
const ExportTraceServiceRequest = root.lookupType("ExportTraceServiceRequest");

export type AttributeValue = string | number | boolean;

/** One received span, its ids in hex and its attributes flattened. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly name: string;
  readonly kind: number;
  readonly statusCode: number;
  readonly attributes: Record<string, AttributeValue>;
  readonly resource: Record<string, AttributeValue>;
}

/** A decoded span as protobufjs gives it (bytes as Uint8Array). */
interface DecodedSpan {
  traceId?: Uint8Array;
  spanId?: Uint8Array;
  parentSpanId?: Uint8Array;
  name?: string;
  kind?: number;
  attributes?: KeyValue[];
  status?: { code?: number };
}

interface KeyValue {
  key: string;
  value?: {
    stringValue?: string;
    boolValue?: boolean;
    intValue?: number | { toNumber(): number };
    doubleValue?: number;
  };
}

function flatten(list: KeyValue[] | undefined): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const { key, value } of list ?? []) {
    if (value?.stringValue !== undefined) out[key] = value.stringValue;
    else if (value?.boolValue !== undefined) out[key] = value.boolValue;
    else if (value?.intValue !== undefined)
      out[key] = typeof value.intValue === "number" ? value.intValue : value.intValue.toNumber();
    else if (value?.doubleValue !== undefined) out[key] = value.doubleValue;
  }
  return out;
}

const hex = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? []).toString("hex");

/** Decodes one `application/x-protobuf` body of `POST /v1/traces`. */
export function decodeTraces(body: Uint8Array): ReceivedSpan[] {
  const message = ExportTraceServiceRequest.toObject(ExportTraceServiceRequest.decode(body), {
    defaults: false,
  }) as {
    resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { spans?: DecodedSpan[] }[] }[];
  };
  const spans: ReceivedSpan[] = [];
  for (const rs of message.resourceSpans ?? []) {
    const resource = flatten(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        spans.push({
          traceId: hex(s.traceId),
          spanId: hex(s.spanId),
          parentSpanId: hex(s.parentSpanId),
          name: s.name ?? "",
          kind: s.kind ?? 0,
          statusCode: s.status?.code ?? 0,
          attributes: flatten(s.attributes),
          resource,
        });
      }
    }
  }
  return spans;
}

export interface OtlpReceiver {
  readonly url: string;
  readonly spans: ReceivedSpan[];
  /** Paths and content types of every export received (`/v1/traces`, `/v1/metrics`). */
  readonly requests: { path: string; contentType: string }[];
  /** Resolves with the first span `match` accepts, polling what has arrived until `timeoutMs`. */
  waitForSpan(match: (span: ReceivedSpan) => boolean, timeoutMs?: number): Promise<ReceivedSpan>;
  close(): Promise<void>;
}

/** An OTLP/HTTP collector on 127.0.0.1 that decodes protobuf trace exports and answers 200. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const requests: { path: string; contentType: string }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const contentType = req.headers["content-type"] ?? "";
      requests.push({ path: req.url ?? "", contentType });
      if (req.url === "/v1/traces" && contentType === "application/x-protobuf") {
        spans.push(...decodeTraces(Buffer.concat(chunks)));
      }
      res.writeHead(200, { "content-type": contentType || "application/x-protobuf" }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    requests,
    async waitForSpan(match, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = spans.find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no matching span among ${spans.length} received`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * OpenTelemetry traces over OTLP/HTTP (JSON): one SERVER span per request,
 * batched and sent in the background. This module is the only one that
 * imports the OpenTelemetry SDK, and the gateway loads it with `import()`
 * only when traces are configured, so the SDK costs nothing when they are
 * off (the bundle evaluates it, and V8 compiles it, only on that import).
 *
 * Nothing is registered globally (no global tracer provider, propagator or
 * context manager): the gateway holds its tracer, and two gateways in one
 * process (tests) keep theirs apart. An incoming `traceparent` makes the span
 * a child of the caller's span, and its sampling decision is followed.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, defaultTextMapGetter } from '@opentelemetry/api';
import { ExportResultCode, W3CTraceContextPropagator, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { TraceSettings } from '../config/env.js';
import { endAttributes, spanName, startAttributes, type RequestTracer } from './request-trace.js';

export interface TracingOptions {
  /** Told when an export fails (collector down, refused), at most once a minute. */
  onExportFailure(message: string): void;
}

const FAILURE_REPORT_INTERVAL_MS = 60_000;

/** Passes spans to the OTLP exporter and reports failed exports, which the SDK would drop silently. */
class ReportingExporter implements SpanExporter {
  private lastReport = -Infinity;

  constructor(
    private readonly inner: SpanExporter,
    private readonly onFailure: (message: string) => void,
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      if (result.code !== ExportResultCode.SUCCESS && Date.now() - this.lastReport >= FAILURE_REPORT_INTERVAL_MS) {
        this.lastReport = Date.now();
        this.onFailure(`${spans.length} span(s) not exported: ${(result.error?.message ?? 'unknown error').slice(0, 300)}`);
      }
      done(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

export function startTracing(settings: TraceSettings, options: TracingOptions): RequestTracer {
  const exporter = new ReportingExporter(new OTLPTraceExporter({ url: settings.endpoint, headers: settings.headers }), options.onExportFailure);
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(settings.sampleRatio) }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('switchyard');
  const propagator = new W3CTraceContextPropagator();

  return {
    start(request) {
      const parent = propagator.extract(ROOT_CONTEXT, request.headers, defaultTextMapGetter);
      const span = tracer.startSpan(spanName(request), { kind: SpanKind.SERVER, attributes: startAttributes(request) }, parent);
      return {
        end(outcome) {
          // Not sampled: nothing is recorded, so nothing is worth computing.
          if (span.isRecording()) {
            span.setAttributes(endAttributes(outcome));
            if (outcome.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
          }
          span.end();
        },
      };
    },
    forceFlush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}

/**
 * Trace settings from the environment: off unless an endpoint is named (ours
 * first, then the standard OpenTelemetry variables), headers as `name=value`
 * pairs, a sampling ratio from 0 to 1, the service name.
 */
import { describe, expect, it } from 'vitest';
import { settingsFromEnv } from '../../src/config/env.js';

describe('trace settings', () => {
  it('are off without an endpoint', () => {
    expect(settingsFromEnv({}).traces).toBeUndefined();
    expect(settingsFromEnv({ SWITCHYARD_OTLP_TRACES_ENDPOINT: ' ', SWITCHYARD_TRACE_SAMPLE: '0.5' }).traces).toBeUndefined();
  });

  it('take our endpoint first, then the standard traces endpoint, then the standard base endpoint plus /v1/traces', () => {
    const standard = { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces.example/custom', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://base.example:4318' };
    expect(settingsFromEnv({ ...standard, SWITCHYARD_OTLP_TRACES_ENDPOINT: 'https://ours.example/v1/traces' }).traces?.endpoint).toBe('https://ours.example/v1/traces');
    expect(settingsFromEnv(standard).traces?.endpoint).toBe('http://traces.example/custom');
    expect(settingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://base.example:4318/' }).traces?.endpoint).toBe('http://base.example:4318/v1/traces');
  });

  it('default to every trace, the service name switchyard and no headers', () => {
    expect(settingsFromEnv({ SWITCHYARD_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' }).traces).toEqual({
      endpoint: 'http://c:4318/v1/traces',
      headers: {},
      sampleRatio: 1,
      serviceName: 'switchyard',
    });
  });

  it('read headers, the ratio and OTEL_SERVICE_NAME', () => {
    const traces = settingsFromEnv({
      SWITCHYARD_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces',
      SWITCHYARD_OTLP_HEADERS: 'authorization=Bearer%20abc, x-scope-orgid = tenant-1,x-raw=a=b',
      SWITCHYARD_TRACE_SAMPLE: '0.25',
      OTEL_SERVICE_NAME: 'edge-gateway',
    }).traces;
    expect(traces).toMatchObject({
      headers: { authorization: 'Bearer abc', 'x-scope-orgid': 'tenant-1', 'x-raw': 'a=b' },
      sampleRatio: 0.25,
      serviceName: 'edge-gateway',
    });
  });

  it('refuse a bad ratio, a header without a name, and an endpoint that is not http(s), without echoing the value', () => {
    const on = { SWITCHYARD_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' };
    expect(() => settingsFromEnv({ ...on, SWITCHYARD_TRACE_SAMPLE: '1.5' })).toThrow('SWITCHYARD_TRACE_SAMPLE must be a number from 0 to 1, got "1.5"');
    expect(() => settingsFromEnv({ ...on, SWITCHYARD_TRACE_SAMPLE: 'half' })).toThrow('SWITCHYARD_TRACE_SAMPLE must be a number from 0 to 1');
    expect(() => settingsFromEnv({ ...on, SWITCHYARD_OTLP_HEADERS: 'Bearer-secret-token' })).toThrow(/^SWITCHYARD_OTLP_HEADERS must be name=value pairs/);
    expect(() => settingsFromEnv({ ...on, SWITCHYARD_OTLP_HEADERS: 'Bearer-secret-token' })).not.toThrow(/secret/);
    expect(() => settingsFromEnv({ SWITCHYARD_OTLP_TRACES_ENDPOINT: 'collector:4318' })).toThrow(/must be an http\(s\) URL/);
  });
});

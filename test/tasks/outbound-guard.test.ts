/** The outbound guard: which addresses callbacks and media fetches may reach. */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundGuard } from '../../src/tasks/outbound-guard.js';
import { startCallbackReceiver, type CallbackReceiver } from './callback-receiver.js';

describe('outbound guard', () => {
  const closed = new OutboundGuard();

  it.each(['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '224.0.0.1'])(
    'refuses %s by default',
    (address) => {
      expect(closed.allowsAddress(address)).toBe(false);
    },
  );

  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '93.184.216.34'])('allows public %s', (address) => {
    expect(closed.allowsAddress(address)).toBe(true);
  });

  it('lets listed hosts, addresses and ranges through', () => {
    const open = new OutboundGuard(['127.0.0.1', '10.0.0.0/8', 'Hooks.Internal', '::1']);
    expect(open.allowsAddress('127.0.0.1')).toBe(true);
    expect(open.allowsAddress('127.0.0.2')).toBe(false);
    expect(open.allowsAddress('10.200.3.4')).toBe(true);
    expect(open.allowsAddress('::1')).toBe(true);
    expect(open.allowsHost('hooks.internal')).toBe(true);
    expect(open.checkUrl('http://hooks.internal/x', 'hook').hostname).toBe('hooks.internal');
  });

  it.each([
    ['ftp://example.com/', /http or https/],
    ['not a url', /not a valid URL/],
    ['http://user:pw@example.com/', /credentials/],
    ['http://127.0.0.1:9/', /private or reserved/],
    ['http://[::1]/', /private or reserved/],
    ['http://2130706433/', /private or reserved/],
    ['http://0x7f.1/', /private or reserved/],
    ['http://localhost/', /private or reserved/],
    ['http://169.254.169.254/latest/meta-data', /private or reserved/],
  ])('checkUrl refuses %s', (url, message) => {
    expect(() => closed.checkUrl(url, 'notifyHook')).toThrow(message);
  });

  it('accepts a public URL as it is', () => {
    expect(closed.checkUrl('https://example.com/hook?a=1', 'notifyHook').href).toBe('https://example.com/hook?a=1');
  });

  describe('at connect time', () => {
    let receiver: CallbackReceiver;
    beforeAll(async () => {
      receiver = await startCallbackReceiver();
    });
    afterAll(async () => {
      await receiver.close();
      await closed.close();
    });

    it('refuses a name that resolves to a private address', async () => {
      const port = new URL(receiver.url).port;
      const failure = await request(`http://localhost:${port}/`, { dispatcher: await closed.agent(), method: 'POST', body: '{}' }).catch((error) => error);
      expect(String(failure?.code ?? failure?.cause?.code ?? failure)).toMatch(/EADDRNOTALLOWED/);
      expect(receiver.received).toHaveLength(0);
    });

    it('connects to a name whose addresses are allowed', async () => {
      const guard = new OutboundGuard(['127.0.0.1', '::1']);
      const port = new URL(receiver.url).port;
      const response = await request(`http://localhost:${port}/ok`, { dispatcher: await guard.agent(), method: 'POST', body: '{}' });
      await response.body.dump();
      expect(response.statusCode).toBe(200);
      await guard.close();
    });
  });
});

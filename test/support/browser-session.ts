/**
 * A small browser for driving sign-ins with fetch: a cookie jar (by host and
 * path, as browsers keep them: ports share cookies), redirects followed by
 * hand, and the provider's forms filled in and posted.
 */
interface Cookie {
  value: string;
  path: string;
}

export class CookieJar {
  private readonly hosts = new Map<string, Map<string, Cookie>>();

  header(url: URL): string | undefined {
    const cookies = this.hosts.get(url.hostname);
    if (!cookies) return undefined;
    const sent = [...cookies].filter(([, cookie]) => url.pathname.startsWith(cookie.path)).map(([name, cookie]) => `${name}=${cookie.value}`);
    return sent.length > 0 ? sent.join('; ') : undefined;
  }

  take(url: URL, response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      const pathAttribute = attributes.find((attribute) => attribute.toLowerCase().startsWith('path='));
      const maxAge = attributes.find((attribute) => attribute.toLowerCase().startsWith('max-age='));
      const expires = attributes.find((attribute) => attribute.toLowerCase().startsWith('expires='));
      const cookies = this.hosts.get(url.hostname) ?? new Map<string, Cookie>();
      this.hosts.set(url.hostname, cookies);
      const gone = (maxAge && Number(maxAge.slice(8)) <= 0) || (expires && Date.parse(expires.slice(8)) < Date.now());
      if (gone || value === '') cookies.delete(name);
      else cookies.set(name, { value, path: pathAttribute ? pathAttribute.slice(5) : '/' });
    }
  }

  get(hostname: string, name: string): string | undefined {
    return this.hosts.get(hostname)?.get(name)?.value;
  }

  set(hostname: string, name: string, value: string, path = '/'): void {
    const cookies = this.hosts.get(hostname) ?? new Map<string, Cookie>();
    this.hosts.set(hostname, cookies);
    cookies.set(name, { value, path });
  }
}

export class Browser {
  readonly jar = new CookieJar();

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url);
    const headers = new Headers(init.headers);
    const cookie = this.jar.header(target);
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(target, { ...init, headers, redirect: 'manual' });
    this.jar.take(target, response);
    return response;
  }

  /**
   * Follows redirects from `url`, filling the provider's login form with
   * `login` and accepting its consent, until a redirect reaches an address
   * starting with `stopAt` (returned, not followed) or an answer that is no
   * redirect and no provider form (returned).
   */
  async signInAtProvider(url: string, login: string, stopAt: string, choice: 'accept' | 'cancel' = 'accept'): Promise<{ stoppedAt?: string; response?: Response }> {
    let next = url;
    let init: RequestInit = {};
    for (let step = 0; step < 20; step++) {
      if (next.startsWith(stopAt)) return { stoppedAt: next };
      const response = await this.fetch(next, init);
      init = {};
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        next = new URL(location, next).href;
        continue;
      }
      const html = response.headers.get('content-type')?.includes('text/html') ? await response.text() : '';
      const form = /<form[^>]*action="([^"]+)"[^>]*method="post"/.exec(html);
      if (!form) return { response };
      if (choice === 'cancel') {
        const abort = /href="([^"]*\/abort)"/.exec(html);
        if (!abort) throw new Error('no cancel link on the provider page');
        next = new URL(abort[1], next).href;
        continue;
      }
      const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1] ?? 'login';
      const fields: Record<string, string> = prompt === 'login' ? { prompt, login, password: 'any' } : { prompt };
      next = new URL(form[1].replaceAll('&amp;', '&'), next).href;
      init = { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() };
    }
    throw new Error('the sign-in did not finish in 20 steps');
  }
}

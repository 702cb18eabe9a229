/**
 * A failed listen, told in the operator's terms: which setting to change,
 * instead of the socket library's EADDRINUSE.
 */
export function listenError(error: unknown, host: string, port: number): Error {
  const code = (error as NodeJS.ErrnoException)?.code;
  switch (code) {
    case 'EADDRINUSE':
      return new Error(`port ${port} is in use on ${host}; set SWITCHYARD_PORT to a free port (or stop what holds it)`);
    case 'EACCES':
      return new Error(`port ${port} needs privileges this process lacks; set SWITCHYARD_PORT to 1024 or above`);
    case 'EADDRNOTAVAIL':
      return new Error(`SWITCHYARD_HOST ${host} is not an address of this machine; set it to one (0.0.0.0: every interface)`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return new Error(`SWITCHYARD_HOST ${host} does not resolve to an address; set it to an IP address or a resolvable host name`);
    default:
      return error instanceof Error ? error : new Error(String(error));
  }
}

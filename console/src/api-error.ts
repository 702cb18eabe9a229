/**
 * An admin API refusal as the console shows it: the message at the field
 * `param` names. Its own file (no browser globals), so code that only
 * raises one is tested without a browser.
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly type: string,
    readonly param: string | undefined,
  ) {
    super(message);
  }

  /** The gateway has no such route: an admin endpoint this gateway's version lacks. */
  get missingRoute(): boolean {
    return this.status === 404 && this.message.startsWith('no route for');
  }
}

/** The GatewayError a promise rejects with (the test fails when it resolves, or rejects with anything else). */
import { expect } from 'vitest';
import { GatewayError } from '../../../src/core/errors.js';

export async function rejection(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(GatewayError);
  return error as GatewayError;
}

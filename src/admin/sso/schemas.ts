/** The answers of the single sign-on routes (sso/routes.ts), for the OpenAPI document and the console's types. */
import { z } from 'zod';
import { builtOnce } from '../../core/built-once.js';

const ssoProbe = () =>
  z.object({
    enabled: z.boolean().describe('Whether the console offers single sign-on.'),
    label: z.string().optional().describe('The provider’s name for the button ("Sign in with …").'),
  });

export const sessionAnswerSchema = builtOnce(() =>
  z.object({
    user: z.object({
      id: z.string(),
      email: z.string(),
      name: z.string().nullable(),
      role: z.enum(['owner', 'admin', 'viewer']).nullable(),
    }),
    expiresAt: z.number().describe('When the session ends, epoch milliseconds.'),
    sso: ssoProbe(),
  }),
);

export const loginQuery = builtOnce(() => z.object({ return: z.string().optional().describe('The console path to land on once signed in (`/console/…`; anything else lands on `/console/`).') }));

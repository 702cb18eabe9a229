/**
 * Upstream faults seen by a Messages client (`/v1/messages`): on the
 * pass-through path (an Anthropic channel) and translated (an OpenAI chat
 * completions channel). See scenarios.ts for what is asserted.
 */
import { messagesFamily } from './families.js';
import { describeUpstreamFaults } from './scenarios.js';

describeUpstreamFaults(messagesFamily);

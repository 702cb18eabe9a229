/**
 * Upstream faults seen by a Responses client (`/v1/responses`): on the
 * pass-through path (an OpenAI Responses channel) and translated (an
 * Anthropic channel). See scenarios.ts for what is asserted.
 */
import { responsesFamily } from './families.js';
import { describeUpstreamFaults } from './scenarios.js';

describeUpstreamFaults(responsesFamily);

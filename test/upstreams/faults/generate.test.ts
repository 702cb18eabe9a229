/**
 * Upstream faults seen by a content-generation client (`:generateContent`,
 * `:streamGenerateContent?alt=sse`): on the pass-through path (a Gemini
 * channel) and translated (an OpenAI Responses channel). See scenarios.ts
 * for what is asserted.
 */
import { generateFamily } from './families.js';
import { describeUpstreamFaults } from './scenarios.js';

describeUpstreamFaults(generateFamily);

/** The simulator with system turns and adaptive thinking: same answer, input counted, a thought as for enabled thinking. */
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../src/core/chat.js';
import { countTokens } from '../../../src/core/tokens.js';
import { simulateAnswer } from '../../../src/upstreams/simulator/answer.js';
import { simulatorAdapter } from '../../../src/upstreams/simulator/index.js';
import { planOf } from '../support/call.js';

const question: ChatRequest = { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'Why is the sky blue?' }] }], stream: false };
const withSystemTurn: ChatRequest = {
  ...question,
  messages: [{ role: 'system', content: [{ type: 'text', text: 'Answer in one breath.' }] }, ...question.messages],
};

describe('simulator: system turns', () => {
  it('never change the answer text, count as input, and keep the answer deterministic', () => {
    const plain = simulateAnswer(question, 'sim');
    const instructed = simulateAnswer(withSystemTurn, 'sim');
    expect(instructed.content).toEqual(plain.content);
    expect(instructed.usage.inputTokens).toBe(plain.usage.inputTokens + countTokens('Answer in one breath.'));
    expect(simulateAnswer(withSystemTurn, 'sim')).toEqual(instructed);
    expect(planOf(simulatorAdapter, withSystemTurn, { strict: false, settings: {} }).decisions).toEqual([{ field: 'system messages', treatment: 'mapped', note: 'folded into the system prompt' }]);
  });

  it('a system turn after the question still answers the question', () => {
    const after = simulateAnswer({ ...question, messages: [...question.messages, { role: 'system', content: [{ type: 'text', text: 'be brief' }] }] }, 'sim');
    expect(after.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('You said: "Why is the sky blue?".') });
  });
});

describe('simulator: adaptive thinking', () => {
  it('thinks as for enabled thinking, whatever the effort, and counts the thought as reasoning', () => {
    const enabled = simulateAnswer({ ...question, thinking: { enabled: true } }, 'sim');
    for (const effort of [undefined, 'low', 'high'] as const) {
      const adaptive = simulateAnswer({ ...question, thinking: { enabled: true, adaptive: true, ...(effort ? { effort } : {}) } }, 'sim');
      expect(adaptive.content.map((part) => part.type)).toEqual(['thinking', 'text']);
      expect(adaptive.content[0]).toMatchObject({ text: (enabled.content[0] as { text: string }).text });
      expect(adaptive.usage.reasoningTokens).toBe(enabled.usage.reasoningTokens);
      expect(adaptive.usage.outputTokens).toBeGreaterThan(adaptive.usage.reasoningTokens!);
    }
    expect(planOf(simulatorAdapter, { ...question, thinking: { enabled: true, adaptive: true } }, { strict: false, settings: {} }).decisions).toEqual([
      { field: 'thinking.adaptive', treatment: 'mapped', note: 'a default budget' },
    ]);
  });
});

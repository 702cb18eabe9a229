/**
 * The channel settings that turn prompt-cache fields off, checked before a
 * channel is stored: `cacheBreakpoints` (anthropic: the gateway's own
 * breakpoints) and `promptCacheKey` (OpenAI types: `prompt_cache_key` and
 * `prompt_cache_retention`). Each is on unless `false`; anything but a
 * boolean is refused rather than read as on.
 */
import { GatewayError } from '../core/errors.js';
import type { Channel } from '../core/channel.js';

function booleanSetting(key: string): (channel: Channel) => boolean {
  return (channel) => {
    const value = channel.settings[key];
    if (value !== undefined && typeof value !== 'boolean')
      throw new GatewayError('internal', `${channel.type} channel ${channel.name}: setting ${key} must be true or false`);
    return value !== false;
  };
}

export const readCacheBreakpointsSetting = booleanSetting('cacheBreakpoints');
export const readPromptCacheKeySetting = booleanSetting('promptCacheKey');

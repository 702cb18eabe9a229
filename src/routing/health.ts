/**
 * Channel health, per instance: a channel whose credentials the upstream
 * refused (401/403) sits out a cool-down, and each channel's API keys are
 * rotated round-robin.
 */
import type { Channel } from '../core/channel.js';

export class ChannelHealth {
  private readonly coolingUntil = new Map<string, number>();
  private readonly keyCursor = new Map<string, number>();

  constructor(private readonly cooldownMs: number) {}

  isHealthy = (channel: Channel): boolean => {
    const until = this.coolingUntil.get(channel.id);
    if (until === undefined) return true;
    if (until <= Date.now()) {
      this.coolingUntil.delete(channel.id);
      return true;
    }
    return false;
  };

  coolDown(channel: Channel): void {
    this.coolingUntil.set(channel.id, Date.now() + this.cooldownMs);
  }

  nextKey(channel: Channel): string {
    if (channel.apiKeys.length === 0) return '';
    const cursor = this.keyCursor.get(channel.id) ?? 0;
    this.keyCursor.set(channel.id, (cursor + 1) % channel.apiKeys.length);
    return channel.apiKeys[cursor % channel.apiKeys.length];
  }
}

/**
 * The family's settings from the config file's `videos` section: the default
 * model and how long finished videos stay downloadable. Read once when the
 * routes are registered, from the config file the bootstrap applied.
 */
import type { ConfigFile } from '../../config/file.js';

export interface VideoSettings {
  defaultModel: string;
  /** Milliseconds a finished video stays downloadable. */
  retentionMs: number;
}

/** What the OpenAI videos clients assume when they name no model. */
export const FALLBACK_MODEL = 'sora-2';
export const DEFAULT_RETENTION_SECONDS = 24 * 3600;

export function readVideoSettings(fileConfig: ConfigFile | undefined): VideoSettings {
  const videos = fileConfig?.videos;
  return {
    defaultModel: videos?.defaultModel ?? FALLBACK_MODEL,
    retentionMs: (videos?.retentionSeconds ?? DEFAULT_RETENTION_SECONDS) * 1000,
  };
}

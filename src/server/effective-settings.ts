import type { GatewaySettings } from '../config/env.js';
import type { ConfigFile } from '../config/file.js';

/** The settings an instance runs with: the config file's limits and switches over the environment's (an environment switch set explicitly wins). */
export function effectiveSettings(settings: GatewaySettings, fileConfig: ConfigFile | undefined): GatewaySettings {
  const limits = fileConfig?.limits ?? {};
  return {
    ...settings,
    maxBodyBytes: limits.maxBodyBytes ?? settings.maxBodyBytes,
    upstreamTimeoutMs: limits.upstreamTimeoutMs ?? settings.upstreamTimeoutMs,
    upstreamIdleMs: limits.upstreamIdleMs ?? settings.upstreamIdleMs,
    maxUpstreamBodyBytes: limits.maxUpstreamBodyBytes ?? settings.maxUpstreamBodyBytes,
    maxUpstreamStreamBytes: limits.maxUpstreamStreamBytes ?? settings.maxUpstreamStreamBytes,
    maxUpstreamEventBytes: limits.maxUpstreamEventBytes ?? settings.maxUpstreamEventBytes,
    maxAttempts: limits.maxAttempts ?? settings.maxAttempts,
    cooldownSeconds: limits.cooldownSeconds ?? settings.cooldownSeconds,
    simulator: settings.simulator ?? fileConfig?.simulator ?? true,
    priceCatalogue: settings.priceCatalogue ?? fileConfig?.priceCatalogue ?? true,
    sessionAffinity: settings.sessionAffinity ?? fileConfig?.sessionAffinity?.enabled ?? true,
    sessionAffinityIdleSeconds: fileConfig?.sessionAffinity?.idleSeconds ?? settings.sessionAffinityIdleSeconds,
    sessionAffinityMaxSessions: fileConfig?.sessionAffinity?.maxSessions ?? settings.sessionAffinityMaxSessions,
    responsesWebSocket: settings.responsesWebSocket ?? fileConfig?.responsesWebSocket ?? true,
    trustedProxies: settings.trustedProxies ?? fileConfig?.trustedProxies,
  };
}

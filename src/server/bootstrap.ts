/**
 * Builds one gateway instance from settings: storage (migrated), secrets,
 * the declarative config file, first-start credentials, channels, billing,
 * limits and the HTTP app. `main.ts` runs it; tests run it in-process.
 */
import { RequestArrivals } from '../core/arrivals.js';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { PriceTable } from '../billing/prices.js';
import { StoredPrices } from '../billing/stored-prices.js';
import { GenaiPricesCatalogue } from '../billing/catalogue.js';
import { warnUnpricedKeys } from '../admin/unpriced-models.js';
import { startLogRetention } from '../billing/log-retention.js';
import { BudgetAlerts } from '../billing/budgets/alerts.js';
import { BudgetIndex } from '../billing/budgets/budget-index.js';
import { selectQuotaLedger } from '../billing/quota/select.js';
import { ROWS_PER_INSERT, UsageRecorder } from '../billing/usage-recorder.js';
import type { GatewaySettings } from '../config/env.js';
import { applyConfigFile } from '../config/apply.js';
import { loadConfigFile } from '../config/file.js';
import { ChannelHealth } from '../routing/health.js';
import { shareBreakers } from '../routing/breaker-share.js';
import { SessionAffinity } from '../routing/session-affinity.js';
import { redisSessionShare } from '../routing/session-share.js';
import { ChannelRegistry } from '../routing/channel-registry.js';
import { simulatorSettingWarning } from '../routing/simulator-setting.js';
import { AccessNotes } from '../observe/access-log.js';
import { GatewayMetrics } from '../observe/metrics.js';
import { metricsSources } from '../observe/sources.js';
import { openChangeFeed } from '../storage/change-feed.js';
import { openStore } from '../storage/open.js';
import { StoreSecrets, type SecretKeyProblem } from '../storage/store-secrets.js';
import { loadUpstreams } from '../upstreams/registry.js';
import { buildApp } from './app.js';
import { openRedis } from './redis-client.js';
import { isRedisUnreachable, RedisWatch } from './redis-watch.js';
import { composeTasks } from './compose.js';
import { effectiveSettings } from './effective-settings.js';
import { firstStartCredentials } from './first-start.js';
import { createLogger } from './logger.js';
import { hashKey, KeyAuthenticator } from '../http/auth.js';
import type { AppContext } from '../http/context.js';
import { RateLimits } from '../http/rate-limits.js';
import { CALLBACK_ATTEMPTS, createTaskEngine } from './task-engine.js';
import { listenError } from './listen-errors.js';
import { InFlightCalls } from '../core/in-flight.js';
import { endAtGraceDeadline, FINAL_FRAMES_MS } from './shutdown.js';

export interface Gateway {
  app: FastifyInstance;
  ctx: AppContext;
  /** Secrets generated at this start (printed once), for the caller to show. */
  generated: { adminKey?: string; clientKey?: string };
  listen(): Promise<string>;
  close(): Promise<void>;
}

export interface GatewayOptions {
  logger?: Logger;
}

/** The price catalogue is read this long after the listen: past the first health checks (a price asked sooner reads it then). */
const CATALOGUE_READ_DELAY_MS = 100;

export async function createGateway(settings: GatewaySettings, options: GatewayOptions = {}): Promise<Gateway> {
  const logger = options.logger ?? createLogger(settings.logLevel);
  const store = await openStore({ databaseUrl: settings.databaseUrl, dataDir: settings.dataDir, schema: settings.databaseSchema, sqliteCacheMb: settings.sqliteCacheMb });
  try {
    // A missing or wrong secret key breaks the channels it sealed, not the instance: keys, logs and the admin API stay up.
    const reportSecretKey = (problem: SecretKeyProblem | undefined) => (problem ? logger.error(`secret key: ${problem.detail}`) : logger.info('the secret key opens the stored credentials again'));
    const secrets = await StoreSecrets.open(store, { dataDir: settings.dataDir, envKey: settings.secretKey }, reportSecretKey);
    if (secrets.problem) reportSecretKey(secrets.problem);
    const fileConfig = settings.configPath ? loadConfigFile(settings.configPath) : undefined;
    if (fileConfig) {
      const applied = await applyConfigFile(store, secrets, fileConfig, hashKey, settings.configPath);
      logger.info({ config: settings.configPath, ...applied }, 'config file applied');
    }
    const effective = effectiveSettings(settings, fileConfig);

    // Required on first use, its providers read shortly after the listen (see `listen`): the start does not wait for it.
    const catalogue = effective.priceCatalogue ? new GenaiPricesCatalogue() : undefined;

    const { admin, clientKey } = await firstStartCredentials(store, effective);

    const channels = new ChannelRegistry(
      store,
      secrets,
      { simulatorFallback: effective.simulator !== false },
      (record, problem) => logger.error({ channel: record.name, channelId: record.id, problem }, 'stored channel is unusable; it serves nothing until fixed'),
      (record, ignored) => logger.warn({ channel: record.name, channelId: record.id, ignored }, 'stored channel has settings the gateway ignores; fix or remove them'),
    );
    await channels.refresh();
    const simulatorWarning = simulatorSettingWarning(settings.simulator ?? fileConfig?.simulator, channels);
    if (simulatorWarning) logger.warn(simulatorWarning);
    channels.startAutoRefresh(effective.refreshIntervalMs, (error) => logger.warn({ err: error }, 'channel refresh failed'));
    // The config file's prices are in the store by now, beside the operator's.
    const prices = new PriceTable([], catalogue);
    const storedPrices = new StoredPrices(store, prices, ({ model, problem }) =>
      logger.error({ model, problem }, 'stored price is invalid; it is skipped (the model is priced as if it were not there) until fixed'),
    );
    await storedPrices.refresh();
    const refreshPricesFailed = (error: unknown) => logger.warn({ err: error }, 'price refresh failed; the last prices read stay in effect');
    storedPrices.startAutoRefresh(effective.refreshIntervalMs, refreshPricesFailed);

    // The Redis client is loaded only when shared rate-limit counters are configured.
    let redisWatch: RedisWatch | undefined;
    const redis = effective.redisUrl ? await openRedis(effective.redisUrl, { maxRetriesPerRequest: 2 }, (client) => (redisWatch = new RedisWatch(client, logger))) : undefined;
    // Redis being away is logged once by its watch, not again by every client of it.
    const unlessRedisAway = (report: (error: unknown) => void) => (error: unknown) => (redis && isRedisUnreachable(error) ? undefined : report(error));
    const upstreams = await loadUpstreams();
    const recorder = new UsageRecorder(store, {
      flushIntervalMs: 500,
      // One insert's worth, or what came in 100 ms. Every commit rewrites the tail pages of the log's
      // B-trees, so a small batch costs more a row (64 rows: about 1.6 × a full one's); a row held much
      // longer outlives young-generation collections and moves to the old space with all it holds.
      maxBatch: ROWS_PER_INSERT,
      maxRowWaitMs: 100,
      onError: (error) => logger.error({ err: error }, 'usage flush failed'),
      // Identifies the row without its text (which may hold what the database refused) or any credential.
      onRejectedRow: (row, error) =>
        logger.error(
          { requestId: row.requestId, logId: row.id, keyId: row.keyId, family: row.family, reason: (error as Error)?.message?.slice(0, 300) },
          'the database refused a request-log row; the rest of its batch was written',
        ),
    });
    const budgets = new BudgetIndex(store, Date.now, (budgetId, periodStart) => recorder.pendingBudget(budgetId, periodStart));
    await budgets.refresh();
    const refreshBudgetsFailed = (error: unknown) => logger.warn({ err: error }, 'budget refresh failed; the budgets last read stay in effect');
    budgets.startAutoRefresh(effective.refreshIntervalMs, refreshBudgetsFailed);
    const alerts = new BudgetAlerts(store, { maxAttempts: CALLBACK_ATTEMPTS });
    alerts.start(effective.refreshIntervalMs, (error) => logger.warn({ err: error }, 'budget alert sweep failed'));
    const auth = new KeyAuthenticator(
      store,
      effective.refreshIntervalMs,
      (keyId) => recorder.pending(keyId),
      (record, problem) => logger.error({ key: record.name, keyId: record.id, problem }, 'stored key is invalid; it is refused until fixed'),
    );
    // Admin changes made on another instance arrive here at once (the refresh interval stays the fallback).
    const changes = await openChangeFeed({
      namespace: effective.databaseSchema ?? 'default',
      redis,
      databaseUrl: store.engine === 'postgres' ? effective.databaseUrl : undefined,
      onChange: (topic) => {
        if (topic === 'keys') auth.invalidate();
        else if (topic === 'prices') void storedPrices.refresh().catch(refreshPricesFailed);
        else if (topic === 'budgets') void budgets.refresh().catch(refreshBudgetsFailed);
        else void channels.refresh().catch(() => undefined);
      },
      onError: unlessRedisAway((error) => logger.warn({ err: error }, 'change notifications unavailable; changes arrive with the periodic refresh')),
    });
    const health = new ChannelHealth(effective.cooldownSeconds * 1000);
    // With Redis, one instance's breaker openings spare the others their failed attempts.
    const breakers = redis
      ? await shareBreakers(
          health,
          redis,
          effective.databaseSchema ?? 'default',
          unlessRedisAway((error) => logger.warn({ err: error }, 'breaker sharing unavailable')),
        )
      : undefined;
    // With Redis, a session moving to another instance keeps its channel and key.
    const affinity = effective.sessionAffinity
      ? new SessionAffinity({
          maxSessions: effective.sessionAffinityMaxSessions,
          idleMs: effective.sessionAffinityIdleSeconds * 1000,
          share:
            redis &&
            redisSessionShare(
              redis,
              effective.databaseSchema ?? 'default',
              unlessRedisAway((error) => logger.warn({ err: error }, 'session pins unavailable')),
            ),
        })
      : undefined;
    // The OpenTelemetry SDK is loaded only when traces are configured.
    const tracer = effective.traces
      ? (await import('../observe/tracing.js')).startTracing(effective.traces, {
          onExportFailure: (message) => logger.warn({ endpoint: new URL(effective.traces!.endpoint).origin }, `trace export failed: ${message}`),
        })
      : undefined;
    const ctx: AppContext = {
      settings: effective,
      store,
      secrets,
      logger,
      auth,
      limits: new RateLimits(redis, {
        outage: effective.redisOutage,
        onOutage: (error) => logger.warn({ err: error }, 'Redis unreachable: rate limits count on this instance alone (SWITCHYARD_REDIS_OUTAGE=open)'),
      }),
      channels,
      health,
      affinity,
      prices,
      storedPrices,
      recorder,
      changes,
      budgets,
      metrics: new GatewayMetrics(metricsSources(store, channels, health), { enabled: settings.metrics }),
      accessNotes: new AccessNotes(effective.accessLog && logger.isLevelEnabled('info'), tracer !== undefined),
      tracer,
      quota: selectQuotaLedger({ store, redis, outage: effective.redisOutage, recorder, logger, quiet: isRedisUnreachable }),
      adapters: upstreams.adapters,
      fileConfig,
      contextWindows: fileConfig?.contextWindows,
      adminKeyHash: admin.hash,
      redisUnavailable: redisWatch && (() => redisWatch!.unavailableReason()),
      inFlight: new InFlightCalls(),
      arrivals: new RequestArrivals(),
      tasks: createTaskEngine({
        settings: effective,
        store,
        channels,
        logger,
        notifyHook: fileConfig?.notifyHook,
        taskTimeouts: fileConfig?.taskTimeouts,
        services: () => ctx,
      }),
    };
    const taskJobs = composeTasks(ctx, upstreams.tasks);
    const stopRetention = startLogRetention(store, {
      retentionDays: effective.logRetentionDays,
      maxRows: effective.logMaxRows,
      auditRetentionDays: effective.auditRetentionDays,
      intervalMs: 3_600_000,
      onError: (error) => logger.warn({ err: error }, 'request-log retention pass failed'),
    });
    const app = await buildApp(ctx);

    let catalogueTimer: NodeJS.Timeout | undefined;
    /** Once the instance serves: the catalogue read, then the config file's keys checked against every price. */
    const readCatalogue = () =>
      (catalogueTimer = setTimeout(() => {
        void (catalogue ? catalogue.load() : Promise.resolve()).then(
          () => {
            // Quotes taken before the catalogue's whole list was read are taken again. With the catalogue off there is
            // nothing to set, and setting "none" could only undo a catalogue set meanwhile.
            if (catalogue) ctx.prices.useCatalogue(catalogue);
            if (fileConfig && !closing) warnUnpricedKeys(ctx, fileConfig.keys);
          },
          (error: unknown) => logger.error({ err: error }, "the price catalogue could not be read whole; models are looked for among their vendors' only"),
        );
      }, CATALOGUE_READ_DELAY_MS).unref());

    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= (async () => {
        clearTimeout(catalogueTimer);
        // Batch lines are taken no more; those in flight get the grace period, the rest go back to the other instances.
        const jobsStopped = taskJobs.stop(effective.shutdownGraceMs);
        // In-flight requests and streams get a bounded grace period; then the gateway ends them itself.
        const disarm = endAtGraceDeadline(app.server, ctx.inFlight, effective.shutdownGraceMs);
        // Keep-alive connections that go idle after their last response would otherwise hold the close open.
        const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
        await app.close();
        stopRetention();
        clearInterval(sweep);
        disarm();
        // Every chat call ended is settled (logged and charged) before the recorder's last flush.
        await ctx.inFlight.idle(FINAL_FRAMES_MS);
        // Before the store closes: the loops finish their pass and hand their leases back.
        await jobsStopped;
        await ctx.tasks.stop();
        channels.stop();
        storedPrices.stop();
        budgets.stop();
        alerts.stop();
        await recorder.close();
        // Every request has ended, and its span with it: send what is buffered.
        await tracer?.shutdown().catch(() => undefined);
        await changes.close();
        redisWatch?.stop();
        breakers?.close();
        await redis?.quit().catch(() => undefined);
        await store.close();
      })());

    return {
      app,
      ctx,
      generated: { adminKey: admin.generated, clientKey },
      listen: async () => {
        const address = await app.listen({ host: effective.host, port: effective.port }).catch((error: unknown) => {
          throw listenError(error, effective.host, effective.port);
        });
        ctx.tasks.start();
        taskJobs.start();
        readCatalogue();
        return address;
      },
      close,
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}

/** Types for the per-backend entry points of rate-limiter-flexible, which ships types only for its index. */
declare module 'rate-limiter-flexible/lib/RateLimiterMemory.js' {
  const RateLimiterMemory: typeof import('rate-limiter-flexible').RateLimiterMemory;
  export default RateLimiterMemory;
}
declare module 'rate-limiter-flexible/lib/RateLimiterRedis.js' {
  const RateLimiterRedis: typeof import('rate-limiter-flexible').RateLimiterRedis;
  export default RateLimiterRedis;
}
declare module 'rate-limiter-flexible/lib/RateLimiterRes.js' {
  const RateLimiterRes: typeof import('rate-limiter-flexible').RateLimiterRes;
  export default RateLimiterRes;
}

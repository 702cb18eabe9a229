/** Types for the files of undici that src/core/undici.ts loads instead of its index (undici ships types only for that). */
declare module 'undici/lib/dispatcher/agent.js' {
  const Agent: typeof import('undici').Agent;
  export default Agent;
}
declare module 'undici/lib/dispatcher/dispatcher.js' {
  const Dispatcher: typeof import('undici').Dispatcher;
  export default Dispatcher;
}
declare module 'undici/lib/api/api-request.js' {
  const request: import('undici').Dispatcher['request'];
  export default request;
}

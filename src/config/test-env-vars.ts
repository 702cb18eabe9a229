/**
 * Variables only the test suite reads (test/), never the gateway. Listed so
 * the reference names them; the test that checks the reference also checks
 * that every SWITCHYARD_* name under test/ is here.
 */
export const TEST_ENV_VARS: Record<string, { default: string; description: string }> = {
  SWITCHYARD_PROPERTY_SEED: { default: '(a fixed seed in each test)', description: 'The seed of the money-rule property tests (each prints the seed it ran with when it fails).' },
  SWITCHYARD_SKIP_PG: { default: '(unset)', description: '`1`: skip the PostgreSQL half of the storage and end-to-end tests (a machine without PostgreSQL).' },
  SWITCHYARD_TEST_PG_URL: { default: '`postgres://127.0.0.1:5432/test`', description: 'The PostgreSQL database the tests create their schemas in.' },
  SWITCHYARD_TEST_REDIS_URL: { default: '`redis://127.0.0.1:6379`', description: 'The Redis the shared rate-limit test uses.' },
  SWITCHYARD_UPSTREAM_FIXTURES: { default: '`test/fixtures/upstream`', description: 'Another folder of recorded upstream answers for the adapter tests.' },
  SWITCHYARD_OPENAPI_FILE: { default: '`test/fixtures/specs/openai-openapi.yaml`', description: 'Another copy of the OpenAI OpenAPI description the Responses tests validate against.' },
  SWITCHYARD_FUZZ_RUNS: { default: '`10`', description: 'Random inputs per route in the fuzz suite (`test/fuzz/`).' },
  SWITCHYARD_FUZZ_SEED: { default: '`20261124`', description: "The fuzz suite's seed; a failure prints the seed and path that reproduce it." },
  SWITCHYARD_FUZZ_ALL: { default: '(unset)', description: '`1`: also run the fuzz generators on the `pendingFix` list.' },
  SWITCHYARD_FUZZ_COLLECT: { default: '(unset)', description: '`1`: the fuzz suite records every finding instead of stopping at the first.' },
  SWITCHYARD_FUZZ_REPORT: { default: '(unset)', description: 'A file the fuzz suite writes its findings to (with `SWITCHYARD_FUZZ_COLLECT`).' },
  SWITCHYARD_FUZZ_TRACE: { default: '(unset)', description: 'A file the fuzz suite logs each input to as it is sent (names an input that blocks the gateway).' },
  AGENTS_VERBOSE: { default: '(unset)', description: '`1`: the agent CLI suite (`bash test/agents/run.sh`) prints every step.' },
  AGENTS_CLI: { default: '(unset)', description: 'Which agent CLI `test/agents/record.mjs` records requests from (same as its `--cli`).' },
};

/**
 * Scripted fake of an Azure OpenAI resource on its `v1` routes:
 * `POST /openai/v1/responses` (and `/responses/compact`),
 * `POST /openai/v1/chat/completions`, `GET /openai/v1/models`, only with the
 * resource's `api-key` header, the deployment named by the body's `model`
 * (an unknown one is Azure's 404 `DeploymentNotFound`). The answers are the
 * openai-responses and openai-chat fakes' (see common.mjs for the script);
 * Chat Completions streams open with Azure's `prompt_filter_results` chunk.
 * The channel it needs (`fake.channel`): its key, `api: responses`, every
 * model the CLIs ask for mapped to the deployment.
 */
import { hex, routeBelow, runStandalone, startFakeServer, writeJson } from './common.mjs';
import { answerChat } from './openai-chat.mjs';
import { answerResponses } from './openai-responses.mjs';

export const AZURE_DEPLOYMENT = 'agents-gpt';
const PREFIX = '/openai/v1';
const FILTER_RESULTS = {
  hate: { filtered: false, severity: 'safe' },
  self_harm: { filtered: false, severity: 'safe' },
  sexual: { filtered: false, severity: 'safe' },
  violence: { filtered: false, severity: 'safe' },
};
/** The chunk an Azure Chat Completions stream opens with: no id, no object, no choices. */
const PROMPT_FILTER_CHUNK = { choices: [], created: 0, id: '', model: '', object: '', prompt_filter_results: [{ prompt_index: 0, content_filter_results: FILTER_RESULTS }] };

const azureError = (res, status, code, message) => writeJson(res, status, { error: { code, message } });

export async function start({ port } = {}) {
  const apiKey = hex(16);
  const fake = await startFakeServer({
    name: 'azure-openai',
    port,
    async handle(req, res, { url, body }) {
      if (req.headers['api-key'] !== apiKey) {
        return azureError(
          res,
          401,
          '401',
          'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
        );
      }
      const route = routeBelow(url, PREFIX);
      if (route === url.pathname || url.searchParams.has('api-version')) return azureError(res, 404, '404', 'Resource not found');
      if (req.method === 'POST' && body?.model !== AZURE_DEPLOYMENT) return azureError(res, 404, 'DeploymentNotFound', 'The API deployment for this resource does not exist.');
      if (route.startsWith('/chat/')) return answerChat(req, res, { route, body, opening: [PROMPT_FILTER_CHUNK] });
      return answerResponses(req, res, { route, body });
    },
  });
  fake.channel = { apiKey, settings: { api: 'responses' }, upstreamModel: AZURE_DEPLOYMENT };
  return fake;
}

await runStandalone(import.meta.url, start);

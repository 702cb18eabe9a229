/**
 * Rules between fields of a GenerateContent request that a per-field schema
 * cannot express: which turns may hold function calls and responses, media
 * that may only come inline, tool names and the function-calling config,
 * structured-output settings, and repeated safety categories.
 */
import type { FileData, GenerateRequest } from '../../dialects/generate/schema.js';
import { mediaKind } from '../../dialects/generate/schema-enums.js';
import { invalidArgument } from './invalid.js';

export function checkRequestRules(req: GenerateRequest): void {
  checkContents(req);
  checkSystemInstruction(req);
  const declared = checkTools(req);
  checkToolConfig(req, declared);
  checkGenerationConfig(req);
  checkSafetySettings(req);
}

function checkContents(req: GenerateRequest): void {
  req.contents.forEach((content, i) => {
    const isModel = content.role === 'model';
    content.parts.forEach((part, j) => {
      const at = `contents[${i}].parts[${j}]`;
      if (part.functionCall && !isModel) throw invalidArgument(at, 'function_call parts are only allowed in turns with role "model"');
      if (part.functionResponse && isModel) throw invalidArgument(at, 'function_response parts are only allowed in turns with role "user", "function" or "tool"');
      if (part.fileData) checkFileData(part.fileData, `${at}.file_data`);
      part.functionResponse?.parts?.forEach((inner, k) => {
        if (inner.fileData) checkFileData(inner.fileData, `${at}.function_response.parts[${k}].file_data`);
      });
    });
  });
}

/** The spec accepts audio, video and PDF only inline, as base64 `inline_data`. */
function checkFileData(file: FileData, at: string): void {
  const kind = mediaKind(file.mimeType);
  if (kind === 'audio' || kind === 'video' || kind === 'document') {
    throw invalidArgument(at, `${file.mimeType} input is accepted only as base64 inline_data; file_data.file_uri is not supported for audio, video or PDF`);
  }
}

function checkSystemInstruction(req: GenerateRequest): void {
  req.systemInstruction?.parts.forEach((part, j) => {
    if (part.text === undefined) throw invalidArgument(`system_instruction.parts[${j}]`, 'system_instruction holds text parts only');
  });
}

/** Returns the declared function names; refuses a name declared twice. */
function checkTools(req: GenerateRequest): Set<string> {
  const names = new Set<string>();
  req.tools?.forEach((tool, i) => {
    tool.functionDeclarations?.forEach((declaration, j) => {
      if (names.has(declaration.name)) {
        throw invalidArgument(`tools[${i}].function_declarations[${j}].name`, `duplicate function name "${declaration.name}"`);
      }
      names.add(declaration.name);
    });
  });
  return names;
}

function checkToolConfig(req: GenerateRequest, declared: Set<string>): void {
  const config = req.toolConfig?.functionCallingConfig;
  if (!config) return;
  const forcing = config.mode === 'ANY' || config.mode === 'VALIDATED';
  if (config.allowedFunctionNames?.length) {
    if (!forcing) {
      throw invalidArgument('tool_config.function_calling_config.allowed_function_names', 'may only be set when mode is ANY or VALIDATED');
    }
    config.allowedFunctionNames.forEach((name, k) => {
      if (!declared.has(name)) {
        throw invalidArgument(`tool_config.function_calling_config.allowed_function_names[${k}]`, `no function named "${name}" is declared in tools`);
      }
    });
  }
  if (config.mode === 'ANY' && declared.size === 0) {
    throw invalidArgument('tool_config.function_calling_config.mode', 'mode ANY requires function_declarations in tools');
  }
}

function checkGenerationConfig(req: GenerateRequest): void {
  const config = req.generationConfig;
  if (!config) return;
  const mime = config.responseMimeType ?? 'text/plain';
  if (config.responseSchema !== undefined && config.responseJsonSchema !== undefined) {
    throw invalidArgument('generation_config.response_json_schema', 'response_schema and response_json_schema are mutually exclusive');
  }
  if (config.responseSchema !== undefined && mime === 'text/plain') {
    throw invalidArgument('generation_config.response_mime_type', 'response_schema requires response_mime_type application/json or text/x.enum');
  }
  if (config.responseJsonSchema !== undefined) {
    if (mime !== 'application/json') {
      throw invalidArgument('generation_config.response_mime_type', 'response_json_schema requires response_mime_type application/json');
    }
    const schema = config.responseJsonSchema;
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      throw invalidArgument('generation_config.response_json_schema', 'must be a JSON Schema object');
    }
  }
  if (mime === 'text/x.enum') {
    const schema = config.responseSchema;
    if (schema?.type !== 'STRING' || !schema.enum?.length) {
      throw invalidArgument('generation_config.response_schema', 'response_mime_type text/x.enum requires a response_schema of type STRING with enum values');
    }
  }
  if (config.logprobs !== undefined && config.responseLogprobs !== true) {
    throw invalidArgument('generation_config.logprobs', 'logprobs may only be set when response_logprobs is true');
  }
}

function checkSafetySettings(req: GenerateRequest): void {
  const seen = new Set<string>();
  req.safetySettings?.forEach((setting, i) => {
    if (seen.has(setting.category)) throw invalidArgument(`safety_settings[${i}].category`, `duplicate safety setting for ${setting.category}`);
    seen.add(setting.category);
  });
}

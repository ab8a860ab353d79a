import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Message } from './conversation';
import { contentsToMessages, geminiJson, sendGeminiError, streamGemini } from './gemini-wire';
import { responsesToMessages, sendOpenAiError, streamResponse } from './openai-wire';
import { decide } from './script';
import { messageJson, sendError, streamTurn, tokens } from './wire';

export interface ScriptedModel {
  url: string;
  close(): Promise<void>;
}

interface MessagesRequest {
  model?: string;
  stream?: boolean;
  system?: unknown;
  messages?: Message[];
}

const readJson = async (req: IncomingMessage): Promise<unknown> => {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return JSON.parse(Buffer.concat(parts).toString('utf8') || '{}');
};

const sendJson = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

const promptChars = (body: MessagesRequest): number =>
  JSON.stringify(body.messages ?? []).length + JSON.stringify(body.system ?? '').length;

/** `/v1beta/models/{model}:generateContent` or `:streamGenerateContent` (gemini-cli). */
const GEMINI_ROUTE =
  /^\/v1(?:beta|alpha)?\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/;

interface GeminiRequest {
  contents?: unknown;
}

export const startScriptedModel = async (options: { port?: number } = {}): Promise<ScriptedModel> => {
  let counter = 0;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://model').pathname;
    if (req.method === 'GET' && path === '/health') return sendJson(res, 200, { status: 'ok' });
    if (req.method !== 'POST') return sendError(res, 404, `No route for ${req.method} ${path}`);
    const raw = await readJson(req);
    if (path === '/v1/responses') return answerResponses(res, raw as { model?: string; input?: unknown });
    const gemini = GEMINI_ROUTE.exec(path);
    if (gemini) return answerGemini(res, gemini[1]!, gemini[2]!, raw as GeminiRequest);
    const body = raw as MessagesRequest;
    if (path === '/v1/messages/count_tokens')
      return sendJson(res, 200, { input_tokens: tokens(promptChars(body)) });
    if (path !== '/v1/messages') return sendError(res, 404, `No route for POST ${path}`);
    if (!Array.isArray(body.messages)) return sendError(res, 400, 'messages: an array is required');
    const reply = decide(body.messages);
    if (reply.kind === 'error') return sendError(res, reply.status, reply.message);
    counter += 1;
    const turn = {
      id: `msg_scripted_${String(counter).padStart(6, '0')}`,
      model: body.model ?? 'scripted',
      inputTokens: tokens(promptChars(body)),
      reply,
    };
    if (body.stream) return streamTurn(res, turn);
    return sendJson(res, 200, messageJson(turn));
  };

  /** OpenAI Responses API (codex): always streamed. */
  const answerResponses = async (res: ServerResponse, body: { model?: string; input?: unknown }) => {
    if (!Array.isArray(body.input)) return sendOpenAiError(res, 400, 'input: an array is required');
    const reply = decide(responsesToMessages(body.input));
    if (reply.kind === 'error') return sendOpenAiError(res, reply.status, reply.message);
    counter += 1;
    return streamResponse(res, {
      id: `resp_scripted_${String(counter).padStart(6, '0')}`,
      model: body.model ?? 'scripted',
      inputTokens: tokens(JSON.stringify(body.input).length),
      reply,
    });
  };

  const answerGemini = async (res: ServerResponse, model: string, method: string, body: GeminiRequest) => {
    const chars = JSON.stringify(body.contents ?? []).length;
    if (method === 'countTokens') return sendJson(res, 200, { totalTokens: tokens(chars) });
    if (!Array.isArray(body.contents)) return sendGeminiError(res, 400, 'contents: an array is required');
    const reply = decide(contentsToMessages(body.contents));
    if (reply.kind === 'error') return sendGeminiError(res, reply.status, reply.message);
    const turn = { model, inputTokens: tokens(chars), reply };
    if (method === 'streamGenerateContent') return streamGemini(res, turn);
    return sendJson(res, 200, geminiJson(turn));
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 400, error instanceof Error ? error.message : 'bad request');
      else res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

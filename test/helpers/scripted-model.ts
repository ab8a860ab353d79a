import { type ScriptedModel, startScriptedModel } from '../../infra/local/src/scripted-model/index';

export type { ScriptedModel };
/** The scripted Anthropic stand-in on an ephemeral port; `close()` it in `afterAll`. */
export const startTestModel = (options: { port?: number } = {}): Promise<ScriptedModel> =>
  startScriptedModel(options);
export { startScriptedModel };

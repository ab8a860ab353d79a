import { describeRuntime } from './runtime-suite';

describeRuntime({
  runtime: 'codex',
  env: (modelUrl) => ({ OPENAI_BASE_URL: modelUrl }),
  shellTool: 'shell',
});

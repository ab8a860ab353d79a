import { describeRuntime } from './runtime-suite';

describeRuntime({
  runtime: 'gemini',
  env: (modelUrl) => ({ GOOGLE_GEMINI_BASE_URL: modelUrl }),
  shellTool: 'run_shell_command',
});

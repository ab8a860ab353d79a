/**
 * Error text that reaches a person: the platform and the CLIs may pass through transport details
 * (internal hosts and ports, URLs, stack frames, raw JSON bodies). Keep the sentence, drop those.
 */
export function cleanErrorMessage(message: string): string {
  const lines = message
    .split('\n')
    .filter((l) => !/^\s*at\s+\S.*(\(|:\d+:\d+)/.test(l))
    .join(' ');
  const out = lines
    // "check your gateway (http://10.0.0.5:8080)": the aside is only the address; drop it whole.
    .replace(
      /\s*\((?:https?:\/\/)?(?:localhost|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:]+\])(?::\d{1,5})?[^)]*\)/gi,
      '',
    )
    .replace(/\bhttps?:\/\/[^\s)"']+/gi, 'the model service')
    .replace(/\b(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?\b/g, 'the model service')
    .replace(/\[[0-9a-f:]+\](?::\d{1,5})?/gi, 'the model service')
    .replace(/\blocalhost(?::\d{1,5})?\b/gi, 'the model service')
    .replace(/\s*\{.*\}\s*$/s, '')
    .replace(/(the model service)(\W+\1)+/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
  return out || 'Something went wrong';
}

/** What a model's HTTP status means to a person. */
export function modelTrouble(status: string | undefined): string {
  if (status === '529' || status === '503') return 'The model is overloaded';
  if (status === '429') return 'The model is rate-limited';
  return 'The model is not answering';
}

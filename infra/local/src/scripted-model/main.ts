import { startScriptedModel } from './server';

const raw = process.env.PORT ?? '0';
const port = Number(raw);
if (!Number.isInteger(port) || port < 0 || port > 65535)
  throw new Error(`PORT must be a port number, got "${raw}"`);

const model = await startScriptedModel({ port });
process.stdout.write(`${JSON.stringify({ msg: 'listening', url: model.url })}\n`);
const stop = () => void model.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

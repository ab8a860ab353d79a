export { type ScriptedModel, startScriptedModel } from './server';

import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { bundleAgentServer } from '../../../agent-image/build';
import { createRepriseApp } from '../src/reprise-app';

// The image's only input is this bundle: rebuild it so the image asset hash follows the code.
await bundleAgentServer();

const app = new App();
const stage: string = app.node.tryGetContext('stage') ?? 'dev';
createRepriseApp(app, { stage, domainPrefix: app.node.tryGetContext('domainPrefix') });
// Every synth (and so every deploy) fails on an unacknowledged AWS Solutions finding.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
app.synth();

import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { createRepriseApp } from '../src/reprise-app';

const app = new App();
const stage: string = app.node.tryGetContext('stage') ?? 'dev';
createRepriseApp(app, { stage, domainPrefix: app.node.tryGetContext('domainPrefix') });
// Every synth (and so every deploy) fails on an unacknowledged AWS Solutions finding.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
app.synth();

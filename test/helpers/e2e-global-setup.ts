import type { TestProject } from 'vitest/node';
import { provideOrExit } from './system-packages';

/** The browser suites' machine needs (Chromium, Java, bubblewrap), before any suite starts a stack. */
export default function setup(project: TestProject) {
  provideOrExit(project.vitest.projects.map((p) => p.name));
}

import { fileURLToPath } from 'node:url';

/** Absolute paths inside the repository, independent of the directory `cdk` runs from. */
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export const repoPath = (relative: string): string => fileURLToPath(new URL(relative, `file://${repoRoot}`));

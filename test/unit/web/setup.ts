import { cleanup } from '@solidjs/testing-library';
import { afterEach } from 'vitest';

// The router scrolls on navigation; jsdom does not implement scrolling.
window.scrollTo = () => {};

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

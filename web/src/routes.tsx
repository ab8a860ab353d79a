import { Navigate, Route } from '@solidjs/router';
import { AgentPage } from './pages/agent-page';
import { AgentsPage } from './pages/agents-page';
import { ExecutionPage } from './pages/execution-page';
import { LoginCallbackPage } from './pages/login-callback-page';
import { LoginPage } from './pages/login-page';
import { RequireAuth } from './shell';

export function AppRoutes() {
  return (
    <>
      <Route path="/login" component={LoginPage} />
      <Route path="/login/callback" component={LoginCallbackPage} />
      <Route path="/" component={RequireAuth}>
        <Route path="/" component={() => <Navigate href="/agents" />} />
        <Route path="/agents" component={AgentsPage} />
        <Route path="/agents/:name" component={AgentPage} />
        <Route path="/executions/:id" component={ExecutionPage} />
        <Route path="*" component={NotFound} />
      </Route>
    </>
  );
}

function NotFound() {
  return (
    <main class="page">
      <h1>Not found</h1>
      <p>
        <a href="/agents">Back to agents</a>
      </p>
    </main>
  );
}

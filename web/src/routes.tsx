import { Navigate, Route } from '@solidjs/router';
import { PageHeading } from './components/ui/page-heading';
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
      <section class="error-state">
        <PageHeading title="Page not found" />
        <p class="muted">There is nothing at this address. It may have moved, or the link is incomplete.</p>
        <div class="form-actions">
          <a class="button button-primary" href="/agents">
            Back to agents
          </a>
        </div>
      </section>
    </main>
  );
}

import type { UserSummary } from '@reprise/functions/schemas';
import { createResource } from 'solid-js';
import type { Api } from '~/api/client';
import { useServices } from '~/services';

const cache = new WeakMap<Api, Promise<Map<string, UserSummary>>>();

/** The tenant's members, fetched once per API client; a failure leaves ids as they are. */
function load(api: Api): Promise<Map<string, UserSummary>> {
  let found = cache.get(api);
  if (!found) {
    found = api
      .listUsers()
      .then((l) => new Map(l.items.map((u) => [u.user_id, u])))
      .catch(() => new Map());
    cache.set(api, found);
  }
  return found;
}

export function usePeople() {
  const { api } = useServices();
  const [people] = createResource(() => load(api));
  return {
    list: () => [...(people()?.values() ?? [])],
    /** An email for a user id, or the id itself while unknown. */
    name: (userId: string | null | undefined) => (userId ? (people()?.get(userId)?.email ?? userId) : '—'),
  };
}

import type { Role } from '../lib/schemas/common';

/** Who is calling: from a verified JWT, or from an API key acting as the key's creator. */
export interface Identity {
  readonly user_id: string;
  readonly email: string;
  readonly tenant: string;
  readonly role: Role;
  readonly via: 'jwt' | 'api_key';
  readonly api_key_id?: string;
}

export const isAdmin = (who: Identity): boolean => who.role === 'admin';

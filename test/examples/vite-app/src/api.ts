// src/api.ts: the app's API client: openapi-fetch, typed by the contract's types that membership-mock ships.
import createClient from 'openapi-fetch';
import type { components, paths } from 'membership-mock/contracts/membership';

export type Pass = components['schemas']['Pass'];

/**
 * A client of the Membership API. In the browser its paths are the page's own (`/members/...`): the dev
 * server, or `vite preview`, proxies them to the mock. A test gives the mock's URL and its session's header.
 */
export function createApi({ baseUrl = '', headers = {} }: { baseUrl?: string; headers?: Record<string, string> } = {}) {
  // Any bearer token passes the mock's security check; the real API's comes from your sign-in.
  return createClient<paths>({ baseUrl, headers: { Authorization: 'Bearer dev', ...headers } });
}

export type Api = ReturnType<typeof createApi>;

/**
 * A run against a server needs the main token (§5 rule 1: every request carries one): without it
 * almost every scenario would be skipped and the run would pass having tested nothing. The embedded
 * reference server brings its own demo tokens, so this applies only when a server is named.
 */
const NO_TOKEN_MESSAGE =
  'a server is named (--base-url) but no token was given: pass --token or set FITCONFORM_TOKEN to the access token of a normal user of the account under test (an empty CI secret counts as none)'

/** The refusal for a run against a server without its main token, or undefined when the token is there. */
export function missingMainToken(
  baseUrl: unknown,
  tokens: { readonly token?: string | undefined } | undefined,
): string | undefined {
  return baseUrl !== undefined && !tokens?.token ? NO_TOKEN_MESSAGE : undefined
}

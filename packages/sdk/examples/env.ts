/**
 * Shared by the examples: a client from the environment.
 * TRAVEL_BASE_URL (default http://localhost:8080), then TRAVEL_TOKEN, or TRAVEL_EMAIL + TRAVEL_PASSWORD
 * (logged in here). TRAVEL_DEBUG=1 prints one redacted line per HTTP attempt.
 */
import { createTravelClient, type TravelClient } from '@travel/sdk';

/**
 * A logged-in client, ready to use.
 *
 * @example
 * const travel = await clientFromEnv();
 */
export async function clientFromEnv(): Promise<TravelClient> {
  const env = process.env;
  const travel = createTravelClient({
    baseUrl: env.TRAVEL_BASE_URL ?? 'http://localhost:8080',
    ...(env.TRAVEL_TOKEN ? { token: env.TRAVEL_TOKEN } : {}),
    ...(env.TRAVEL_DEBUG
      ? { logger: { debug: (message, record) => console.error(message, JSON.stringify(record)) } }
      : {}),
  });
  if (!env.TRAVEL_TOKEN) {
    if (!env.TRAVEL_EMAIL || !env.TRAVEL_PASSWORD) {
      throw new Error(
        'set TRAVEL_TOKEN, or TRAVEL_EMAIL and TRAVEL_PASSWORD (the sandbox admin login is printed on start)',
      );
    }
    await travel.auth.login({ email: env.TRAVEL_EMAIL, password: env.TRAVEL_PASSWORD });
  }
  return travel;
}

/** A date `days` from today, as YYYY-MM-DD. */
export function inDays(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** The plans of spec §2.6. The init migration seeds the same rows; a test keeps the two in step. */
export interface PlanDefinition {
  id: 'free' | 'developer' | 'pro' | 'scale';
  name: string;
  monthlyCredits: number;
  concurrencyLimit: number;
  priceUsdCents: number;
}

export const PLANS: readonly PlanDefinition[] = [
  { id: 'free', name: 'Free', monthlyCredits: 10_000, concurrencyLimit: 5, priceUsdCents: 0 },
  { id: 'developer', name: 'Developer', monthlyCredits: 100_000, concurrencyLimit: 20, priceUsdCents: 2_000 },
  { id: 'pro', name: 'Pro', monthlyCredits: 1_000_000, concurrencyLimit: 50, priceUsdCents: 10_000 },
  { id: 'scale', name: 'Scale', monthlyCredits: 2_500_000, concurrencyLimit: 100, priceUsdCents: 20_000 },
];

export const PLAN_IDS = PLANS.map((p) => p.id);

/** Credit costs of spec §8. */
export const COSTS = {
  search: 10,
  serpSearch: 10,
  serpMaps: 30,
  crawlHttp: 1,
  crawlRender: 10,
  /** A `/crawl` page answered from the page cache (`max_age`), whatever engine fetched it: docs/decisions.md. */
  cacheHit: 1,
  /** POST /map: robots.txt, sitemaps and the start page's links (Trawl's own price: the spec has no map). */
  map: 2,
  headful: 50,
} as const;

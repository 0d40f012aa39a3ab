// Copies of core's closed lists (providers are open: they come from the registry at run time), so that `--help` and flag parsing load no workspace package (start-up time:
// the bundle's core chunk carries zod and undici). `constants.test.ts` keeps them equal to core's.
export const MODE_CHOICES = ['fast', 'deep', 'answer'] as const
export const INTENT_LIST = ['factual', 'status', 'comparison', 'tutorial', 'exploratory', 'news', 'resource'] as const
export const INTENT_CHOICES = ['auto', 'none', ...INTENT_LIST] as const

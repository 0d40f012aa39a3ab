import { describe, expect, it } from 'vitest'
import { redactRedisUrl } from './guarded-redis.js'

describe('redactRedisUrl', () => {
  it.each([
    ['redis://default:hunter22@cache.internal:6379/0', 'redis://cache.internal:6379/0'],
    // Some hosts take the token as the user name: it is as secret as a password.
    ['rediss://tok3n-abcdef@cache.example:6380', 'rediss://cache.example:6380'],
    ['redis://:only-password@localhost', 'redis://localhost'],
    ['redis://localhost:6379', 'redis://localhost:6379'],
    ['not a url', 'redis://(unparseable url)'],
  ])('%s → %s', (url, shown) => expect(redactRedisUrl(url)).toBe(shown))
})

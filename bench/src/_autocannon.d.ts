// NOTE(autocannon): v8 ships no types and @types/autocannon is not a dependency here; this declares
// only the part of its API the bench uses.
declare module 'autocannon' {
  interface AutocannonRequest {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string
  }
  interface AutocannonOptions {
    url: string
    connections?: number
    duration?: number
    timeout?: number
    idReplacement?: boolean
    overallRate?: number
    requests?: AutocannonRequest[]
  }
  interface Histogram {
    average: number
    mean: number
    total: number
    p50: number
    p90: number
    p99: number
    max: number
    min: number
  }
  interface AutocannonResult {
    requests: Histogram
    latency: Histogram
    throughput: Histogram
    errors: number
    timeouts: number
    non2xx: number
    duration: number
  }
  function autocannon(options: AutocannonOptions): Promise<AutocannonResult>
  export default autocannon
}

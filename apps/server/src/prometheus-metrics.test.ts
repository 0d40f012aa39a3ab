import { describe, expect, it } from 'vitest'
import { Counter, Histogram, renderGauge } from './prometheus-metrics.js'

describe('Prometheus rendering', () => {
  it('counters keep one series per label set and escape label values', () => {
    const c = new Counter('x_total', 'X.', ['route', 'status'])
    c.inc({ route: '/a', status: '200' })
    c.inc({ status: '200', route: '/a' })
    c.inc({ route: 'say "hi"\\\n' }, 3)
    expect(c.render()).toBe(
      [
        '# HELP x_total X.',
        '# TYPE x_total counter',
        'x_total{route="/a",status="200"} 2',
        'x_total{route="say \\"hi\\"\\\\\\n"} 3',
      ].join('\n'),
    )
  })
  it('histograms are cumulative with +Inf, sum and count', () => {
    const h = new Histogram('lat_seconds', 'L.', ['r'], [0.1, 1])
    h.observe({ r: 'a' }, 0.05)
    h.observe({ r: 'a' }, 0.5)
    h.observe({ r: 'a' }, 5)
    expect(h.render().split('\n').slice(2)).toEqual([
      'lat_seconds_bucket{r="a",le="0.1"} 1',
      'lat_seconds_bucket{r="a",le="1"} 2',
      'lat_seconds_bucket{r="a",le="+Inf"} 3',
      'lat_seconds_sum{r="a"} 5.55',
      'lat_seconds_count{r="a"} 3',
    ])
  })
  it('gauges render a snapshot', () => {
    expect(renderGauge('up', 'Up.', [{ labels: {}, value: 1 }])).toBe('# HELP up Up.\n# TYPE up gauge\nup 1')
  })
})

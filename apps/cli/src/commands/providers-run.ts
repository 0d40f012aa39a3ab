import { keyVariableHint } from '@search-layer/core'
import { GITHUB_SERVICE, describeConfig } from '@search-layer/core/config'
import { type KeyStatus, createSearchLayer, formatLatency } from '@search-layer/engine'
import { renderingStatus } from '@search-layer/page-fetch'
import { engineOptionsFromEnv } from '../engine-options.js'
import type { ParsedCommandArgs } from '../args.js'
import { type CliIo, EXIT } from '../io.js'
import { loadProviders } from '../providers.js'
import { renderTable } from '../table.js'
import { checkConfig, writeConfigProblems } from './config-problems.js'

/** The implementation, loaded only when the command runs. */
export async function runProviders(args: ParsedCommandArgs, io: CliIo): Promise<number> {
  const providers = await loadProviders(io.env)
  const { config, problems } = checkConfig(io.env, providers)
  const keyless = new Set(providers.filter((d) => d.keyless).map((d) => d.id))
  // A keyless source searches without a key; one it can still use (GITHUB_TOKEN, STACKEXCHANGE_KEY) is shown as set.
  const description = describeConfig(config).map((d) =>
    keyless.has(d.name) && !d.configured ? { ...d, configured: true, key: 'not needed' } : d,
  )
  // Each key's pace, quota and rest as earlier runs learned them (the key-state file), by key label only.
  const statuses = await createSearchLayer(
    engineOptionsFromEnv(io.env, { cache: false, providers, oneShot: true }),
  ).status()
  const configured = statuses.filter((s) => s.configured)
  const keysOf = new Map(configured.map((s) => [s.name, s.keys]))
  const latencyOf = new Map(configured.flatMap((s) => (s.latency ? [[s.name, s.latency] as const] : [])))
  // What a search assumes of a provider until three of its calls are timed (its definition's typical latency).
  const typicalOf = new Map(providers.map((d) => [d.id, d.typicalLatencyMs]))
  const rendering = renderingStatus(io.env)
  const hintOf = new Map([...providers, GITHUB_SERVICE].map((d) => [d.id, keyVariableHint(d)]))
  // Exit 2 when something is broken, after showing what still works.
  const code = problems.some((p) => p.severity === 'error') ? EXIT.usage : EXIT.ok
  const invalid = new Set(
    problems.filter((p) => p.severity === 'error' && p.services.length === 1).flatMap((p) => p.services),
  )
  if (args.values.json) {
    const withKeys = description.map((d) =>
      keysOf.has(d.name)
        ? {
            ...d,
            keys: keysOf.get(d.name),
            ...(latencyOf.has(d.name) && { latency: latencyOf.get(d.name) }),
            typicalLatencyMs: typicalOf.get(d.name),
          }
        : d,
    )
    const output = { providers: withKeys, rendering, ...(problems.length && { problems }) }
    io.stdout.write(`${JSON.stringify(output, null, 2)}\n`)
    writeConfigProblems(problems, 'providers', io)
    return code
  }
  const rows = description.map((d) => [
    d.name,
    invalid.has(d.name) ? 'invalid' : d.configured ? 'yes' : 'no',
    keyCell(d, keyless.has(d.name), hintOf.get(d.name)),
    d.baseUrl === undefined ? '' : d.baseUrl + (d.baseUrlSource === 'default' ? '' : ` (${d.baseUrlSource})`),
    d.model ?? '',
  ])
  io.stdout.write(renderTable(['service', 'configured', 'key', 'endpoint', 'model'], rows))
  const ids = new Set(providers.map((d) => d.id))
  const searchReady = description.filter((d) => d.configured && ids.has(d.name)).length
  io.stdout.write(`\n${searchReady} of ${ids.size} search providers configured.\n`)
  io.stdout.write(`Rendering JavaScript-only pages: ${rendering.state} (${rendering.detail}).\n`)
  const keyRows = [...keysOf].flatMap(([name, keys]) => keys.map((k) => keyRow(name, k, typicalOf.get(name))))
  if (keyRows.length > 0)
    io.stdout.write(
      `\n${renderTable(['provider', 'key', 'pace', 'latency p50 / p90', 'this window', 'monthly quota', 'state'], keyRows)}`,
    )
  for (const [name, keys] of keysOf)
    for (const k of keys) if (k.warning) io.stdout.write(`${name} ${k.label}: ${k.warning}\n`)
  writeConfigProblems(problems, 'providers', io)
  return code
}

/** What the key column says: the key's source when one is set, else what to set, or that none is needed. */
function keyCell(
  d: { configured: boolean; key: string | null; keySource: string | null },
  keyless: boolean,
  hint: string | undefined,
): string {
  if (d.key && d.keySource) return `${d.key} from ${d.keySource}`
  if (!keyless) return `set ${hint}`
  return hint && hint !== '(no key needed)' ? `not needed (optional: ${hint})` : 'not needed'
}

const shortTime = (iso: string) => `${iso.slice(0, 19).replace('T', ' ')} UTC`
const count = (n: number) => n.toLocaleString('en-US')

/** One key as a row: its pace (learned from the vendor or the default), what is left, and whether it rests. */
function keyRow(provider: string, key: KeyStatus, typicalMs: number | undefined): string[] {
  const pace = key.pace ? `${key.pace.perSecond}/s ${key.pace.learned ? '(learned)' : '(default)'}` : 'off'
  const limits = key.limits
  const window =
    limits?.remaining !== undefined
      ? `${count(limits.remaining)} left${limits.resetsAt ? `, resets ${shortTime(limits.resetsAt)}` : ''}`
      : ''
  const quota =
    limits?.quotaRemaining !== undefined && limits.quotaLimit !== undefined
      ? `${count(limits.quotaRemaining)} of ${count(limits.quotaLimit)} left${limits.quotaResetsAt ? `, resets ${shortTime(limits.quotaResetsAt)}` : ''}`
      : ''
  const state =
    key.resting && key.restingUntil
      ? `resting until ${shortTime(key.restingUntil)} (${key.lastError?.kind ?? 'failures'})`
      : 'ok'
  return [provider, key.label, pace, latencyCell(key.latency, typicalMs), window, quota, state]
}

/**
 * `450 ms / 1.2 s (12 calls, 2 cut off)`: what earlier runs timed; before any call was, what searches assume until
 * then: `not timed (usually 8.0 s)`.
 */
function latencyCell(latency: KeyStatus['latency'], typicalMs: number | undefined): string {
  if (!latency) return typicalMs === undefined ? '' : `not timed (usually ${formatLatency({ ms: typicalMs })})`
  const calls = `${latency.samples} call${latency.samples === 1 ? '' : 's'}`
  const late = latency.late > 0 ? `, ${latency.late} cut off` : ''
  return `${formatLatency(latency.p50)} / ${formatLatency(latency.p90)} (${calls}${late})`
}

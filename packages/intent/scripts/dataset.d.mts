import type { Intent } from '@search-layer/core'

export interface LabelledRow {
  query: string
  intent: Intent
  lang: 'en' | 'zh'
  family: string
  split: 'train' | 'holdout'
}

export const HOLDOUT_SEED: string
export const HOLDOUT_PERCENT: number
export function splitOf(query: string): 'train' | 'holdout'
export function readJsonl<T = Record<string, unknown>>(relative: string): T[]
export function readDataset(): LabelledRow[]

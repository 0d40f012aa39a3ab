/** A third-party package found in a bundle. */
export interface BundledPackage {
  name: string
  version: string
  manifest: Record<string, unknown>
  dir: string
}
export function packageDirOf(file: string): string | undefined
export function bundledPackages(metafile: { inputs?: Record<string, unknown> }, root: string): BundledPackage[]
export function renderNotices(subject: string, packages: BundledPackage[]): string
export function writeThirdPartyNotices(
  metafilePath: string,
  outFile: string,
  subject: string,
  root?: string,
): BundledPackage[]

// A value made at its first use rather than at start (a file the site embeds, a module or an app
// only some requests need): made once however many requests ask at the same moment, and made again
// at the next use if making it failed, so that one failure is not kept as the answer for good.
export function atFirstUse<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined
  return () => (made ??= make().catch((e: unknown) => {
    made = undefined
    throw e
  }))
}
